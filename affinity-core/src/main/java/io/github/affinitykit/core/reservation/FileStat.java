package io.github.affinitykit.core.reservation;

import io.github.affinitykit.core.internal.natives.Errno;
import io.github.affinitykit.core.internal.natives.FileCalls;
import io.github.affinitykit.core.internal.text.Printable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code lstat}/{@code fstat} say of a lock file: identity, type and mode, link count, owner.
 * Read with one {@code statx} (one layout on every architecture; only these fields asked, so the
 * kernel does not switch the file to fine-grained timestamps), else ({@code ENOSYS} before Linux
 * 4.11, {@code EPERM} under an old seccomp profile) through the JDK's {@code unix} view; without
 * that view identity and owner are -1 and only the type is checked.
 *
 * <p>Thread safety: immutable; the readers are stateless.
 *
 * @param dev the device, as glibc's {@code makedev} encodes it, or -1 if unknown
 * @param ino the inode, or -1 if unknown
 * @param mode the type and permission bits ({@code st_mode})
 * @param nlink the number of hard links
 * @param uid the owner's user id, or -1 if unknown
 */
record FileStat(long dev, long ino, int mode, int nlink, int uid) {
  private static final int S_IFMT = 0170000;
  private static final int S_IFREG = 0100000;
  private static final int S_IFDIR = 0040000;
  private static final int S_IFLNK = 0120000;
  private static final int S_IFIFO = 0010000;
  private static final int S_IFSOCK = 0140000;
  private static final int MASK = 0x1 | 0x2 | 0x4 | 0x8 | 0x100; // TYPE|MODE|NLINK|UID|INO
  private static final String UNIX = "unix:dev,ino,mode,nlink,uid";
  private static final byte[] EMPTY = {0};

  /** The file {@code path} names, last component not followed, through the JDK; empty if none. */
  static Optional<FileStat> lstat(Path path) throws IOException {
    try {
      if (!hasUnixView()) {
        return Optional.of(basic(path));
      }
      return Optional.of(of(Files.readAttributes(path, UNIX, LinkOption.NOFOLLOW_LINKS)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /** As {@link #lstat(Path)}, with {@code statx} of {@code cpath} (the encoded path) first. */
  static Optional<FileStat> lstat(FileCalls calls, Path path, byte[] cpath) throws IOException {
    byte[] buf = new byte[FileCalls.STATX_BYTES];
    int err = -calls.statx(FileCalls.AT_FDCWD, cpath, FileCalls.AT_SYMLINK_NOFOLLOW, MASK, buf);
    if (err == 0) {
      return Optional.of(read(buf));
    }
    if (err == Errno.ENOENT) {
      return Optional.empty();
    }
    if (err == Errno.ENOSYS || err == Errno.EPERM) {
      return lstat(path);
    }
    throw new FileSystemException(path.toString(), null, Errno.describe(err));
  }

  /** The file open as descriptor {@code fd} of this process. */
  static FileStat ofDescriptor(FileCalls calls, int fd) throws IOException {
    byte[] buf = new byte[FileCalls.STATX_BYTES];
    int err = -calls.statx(fd, EMPTY, FileCalls.AT_EMPTY_PATH, MASK, buf);
    if (err == 0) {
      return read(buf);
    }
    Path link = Path.of("/proc/self/fd/" + fd);
    if (err == Errno.ENOSYS || err == Errno.EPERM) {
      return of(Files.readAttributes(link, UNIX));
    }
    throw new FileSystemException(link.toString(), null, Errno.describe(err));
  }

  /** The fields of a filled {@code struct statx}, {@code dev} as glibc's {@code makedev}. */
  private static FileStat read(byte[] buf) {
    ByteBuffer b = ByteBuffer.wrap(buf).order(ByteOrder.nativeOrder());
    int nlink = b.getInt(16);
    int uid = b.getInt(20);
    int mode = b.getShort(28) & 0xFFFF;
    long ino = b.getLong(32);
    long major = b.getInt(136) & 0xFFFF_FFFFL;
    long minor = b.getInt(140) & 0xFFFF_FFFFL;
    long dev =
        ((major & 0xFFFF_F000L) << 32)
            | ((major & 0xFFFL) << 8)
            | ((minor & 0xFFFF_FF00L) << 12)
            | (minor & 0xFFL);
    return new FileStat(dev, ino, mode, nlink, uid);
  }

  private static boolean hasUnixView() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("unix");
  }

  private static FileStat of(Map<String, Object> a) {
    return new FileStat(
        (Long) a.get("dev"),
        (Long) a.get("ino"),
        (Integer) a.get("mode"),
        (Integer) a.get("nlink"),
        (Integer) a.get("uid"));
  }

  private static FileStat basic(Path path) throws IOException {
    BasicFileAttributes a =
        Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    int type =
        a.isRegularFile() ? S_IFREG : a.isDirectory() ? S_IFDIR : a.isSymbolicLink() ? S_IFLNK : 0;
    return new FileStat(-1, -1, type, 1, -1);
  }

  /** The permission bits, as {@code 0644}. */
  String permissions() {
    return String.format(Locale.ROOT, "%04o", mode & 07777);
  }

  /**
   * Who owns the file and its permission bits, as {@code uid 0 (root), mode 0644}: the name is
   * looked up now (by {@code path}, its last component not followed) and left out when unknown.
   */
  String ownerAndMode(Path path) {
    String name;
    try {
      name = Files.getOwner(path, LinkOption.NOFOLLOW_LINKS).getName();
    } catch (IOException | UnsupportedOperationException e) {
      name = "";
    }
    String id = Integer.toUnsignedString(uid);
    String owner =
        uid == -1
            ? (name.isEmpty() ? "an unknown user" : Printable.of(name))
            : "uid "
                + id
                + (name.isEmpty() || name.equals(id) ? "" : " (" + Printable.of(name) + ")");
    return "belongs to " + owner + ", mode " + permissions();
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
