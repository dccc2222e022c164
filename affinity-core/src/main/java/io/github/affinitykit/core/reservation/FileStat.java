package io.github.affinitykit.core.reservation;

import com.sun.jna.LastErrorException;
import io.github.affinitykit.core.internal.Errno;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code lstat}/{@code fstat} say of a lock file that matters to a reservation: its identity
 * (device and inode), its type and its number of hard links. Read with one {@code statx} call
 * ({@link StatCalls}) where it can be called; otherwise through the JDK's {@code unix} attribute
 * view, so no {@code struct stat} layout is assumed, a descriptor being read through its {@code
 * /proc/self/fd} link. Where the JDK has no {@code unix} view the identity is unknown ({@code -1})
 * and only the type is checked.
 *
 * <p>Thread safety: immutable; the readers are stateless.
 */
record FileStat(long dev, long ino, int mode, int nlink) {
  private static final int S_IFMT = 0170000;
  private static final int S_IFREG = 0100000;
  private static final int S_IFDIR = 0040000;
  private static final int S_IFLNK = 0120000;
  private static final int S_IFIFO = 0010000;
  private static final int S_IFSOCK = 0140000;
  private static final String UNIX = "unix:dev,ino,mode,nlink";
  private static final byte[] EMPTY = {0};

  /** The file {@code path} names, its last component not followed; empty if there is none. */
  static Optional<FileStat> lstat(Path path) throws IOException {
    return lstat(path, null);
  }

  /**
   * As {@link #lstat(Path)}, with the path already encoded ({@link StatCalls#cString(String)}) for
   * callers that check the same path again and again; null to encode it here.
   */
  static Optional<FileStat> lstat(Path path, byte[] cpath) throws IOException {
    if (StatCalls.usable()) {
      byte[] c = cpath != null ? cpath : StatCalls.cString(path.toString());
      return statx(StatCalls.AT_FDCWD, c, path, StatCalls.AT_SYMLINK_NOFOLLOW);
    }
    try {
      if (!hasUnixView()) {
        return Optional.of(basic(path));
      }
      return Optional.of(of(Files.readAttributes(path, UNIX, LinkOption.NOFOLLOW_LINKS)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /** The file open as descriptor {@code fd} of this process (Linux: its /proc/self/fd link). */
  static FileStat ofDescriptor(int fd) throws IOException {
    if (StatCalls.usable()) {
      return statx(fd, EMPTY, Path.of("/proc/self/fd/" + fd), StatCalls.AT_EMPTY_PATH)
          .orElseThrow(() -> new NoSuchFileException("/proc/self/fd/" + fd));
    }
    return of(Files.readAttributes(Path.of("/proc/self/fd/" + fd), UNIX));
  }

  private static Optional<FileStat> statx(int dirfd, byte[] cpath, Path path, int flags)
      throws IOException {
    byte[] buf = new byte[StatCalls.BUFFER_BYTES];
    try {
      StatCalls.statx(dirfd, cpath, flags, StatCalls.MASK, buf);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == StatCalls.ENOENT) {
        return Optional.empty();
      }
      throw new FileSystemException(path.toString(), null, Errno.describe(e.getErrorCode()));
    }
    return Optional.of(StatCalls.read(buf));
  }

  private static boolean hasUnixView() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("unix");
  }

  private static FileStat of(Map<String, Object> a) {
    return new FileStat(
        (Long) a.get("dev"),
        (Long) a.get("ino"),
        (Integer) a.get("mode"),
        (Integer) a.get("nlink"));
  }

  private static FileStat basic(Path path) throws IOException {
    BasicFileAttributes a =
        Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    int type =
        a.isRegularFile() ? S_IFREG : a.isDirectory() ? S_IFDIR : a.isSymbolicLink() ? S_IFLNK : 0;
    return new FileStat(-1, -1, type, 1);
  }

  /** Whether both name the same inode (always true when an identity is unknown). */
  boolean sameFile(FileStat other) {
    return dev < 0 || other.dev < 0 || (dev == other.dev && ino == other.ino);
  }

  /**
   * Why this file cannot be a lock file, as {@code "is a symbolic link (expected: a regular
   * file)"}, or empty if it is a regular file with one name.
   */
  Optional<String> problem() {
    int type = mode & S_IFMT;
    if (type != S_IFREG) {
      return Optional.of("is " + kind(type) + " (expected: a regular file)");
    }
    if (nlink != 1) {
      return Optional.of("has " + nlink + " hard links (expected: 1, a file of its own)");
    }
    return Optional.empty();
  }

  private static String kind(int type) {
    switch (type) {
      case S_IFDIR:
        return "a directory";
      case S_IFLNK:
        return "a symbolic link";
      case S_IFIFO:
        return "a FIFO";
      case S_IFSOCK:
        return "a socket";
      default:
        return "a special file (mode " + Integer.toOctalString(type) + ")";
    }
  }
}
