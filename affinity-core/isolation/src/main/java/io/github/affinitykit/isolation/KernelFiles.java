package io.github.affinitykit.isolation;

import io.github.affinitykit.core.internal.SysFs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads and writes the kernel files the isolation changes ({@code /sys/fs/cgroup/...}, {@code
 * /proc/irq/...}, {@code /sys/devices/virtual/workqueue/cpumask}) under a root: {@code /} in
 * production, a copied fixture tree in tests. Text is read and written exactly, so that what the
 * journal keeps can be put back byte for byte.
 *
 * <p>A fixture tree has no kernel behind it: under a root other than {@code /}, {@link
 * #write(String, String)} creates a file the kernel would have made with its directory (a new
 * cgroup's control files), and {@link #rmdir(String)} first deletes the plain files in the
 * directory, as removing a cgroup removes its control files; and a file without its owner's write
 * permission refuses a write even to root, as a kernel file the kernel will not take does. Nothing
 * else differs.
 *
 * <p>Thread safety: immutable; the files themselves are shared with the whole machine.
 */
final class KernelFiles {
  private final SysFs fs;
  private final boolean live;

  KernelFiles(Path root) {
    this.fs = new SysFs(Objects.requireNonNull(root, "root"));
    this.live = root.toAbsolutePath().normalize().equals(Path.of("/"));
  }

  SysFs fs() {
    return fs;
  }

  /**
   * The file's exact text (no trimming), or empty if it is absent, unreadable or refused: read as
   * {@link SysFs#raw} reads, bounded and only if it is a regular file.
   */
  Optional<String> raw(String absolute) {
    return fs.raw(absolute);
  }

  /** The file's text without trailing whitespace, or empty if absent or unreadable. */
  Optional<String> read(String absolute) {
    return fs.read(absolute);
  }

  boolean exists(String absolute) {
    return fs.exists(absolute);
  }

  /** Whether this process may write the file (or create entries in the directory). */
  boolean writable(String absolute) {
    try {
      return Files.isWritable(fs.path(absolute));
    } catch (InvalidPathException e) {
      return false;
    }
  }

  /**
   * Writes {@code text} to an existing kernel file in one {@code write(2)}, as {@code echo} does:
   * the kernel applies it or returns the error, which is thrown with the path and the text.
   */
  void write(String absolute, String text) throws IOException {
    Path p = fs.path(absolute);
    boolean made = !live && Files.isDirectory(p.getParent());
    if (!made && !Files.exists(p)) {
      throw new NoSuchFileException(p.toString(), null, "no such kernel file");
    }
    if (!live
        && Files.isRegularFile(p)
        && !Files.getPosixFilePermissions(p).contains(PosixFilePermission.OWNER_WRITE)) {
      throw new AccessDeniedException(p.toString(), null, "read-only kernel file");
    }
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    try (FileChannel ch =
        made
            ? FileChannel.open(
                p,
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)
            : FileChannel.open(p, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer buf = ByteBuffer.wrap(bytes);
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
    } catch (IOException e) {
      throw new IOException("write \"" + text.strip() + "\" to " + absolute + ": " + e, e);
    }
  }

  /** Creates a directory (a cgroup); fails if it exists. */
  void mkdir(String absolute) throws IOException {
    Files.createDirectory(fs.path(absolute));
  }

  /** Removes a directory (a cgroup), which must hold no task. */
  void rmdir(String absolute) throws IOException {
    Path dir = fs.path(absolute);
    if (!live) {
      try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, Files::isRegularFile)) {
        for (Path f : files) {
          Files.delete(f);
        }
      }
    }
    Files.delete(dir);
  }
}
