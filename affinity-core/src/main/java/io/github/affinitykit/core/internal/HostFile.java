package io.github.affinitykit.core.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One bounded, type-checked read of a host tree's file for {@link SysFs}: the only place this
 * library opens a kernel file to read it. The type is read first without following a last link (a
 * link's target must lie in the tree under a root other than {@code /}); only a regular file is
 * opened, with {@code O_NOFOLLOW} (a FIFO or device could block or read without end); at most
 * {@code limit + 1} bytes are read and a longer file is refused, not cut (a truncated table would
 * read as another). A file swapped in between the check and the open can still block: see
 * ARCHITECTURE.md, "affinity-core: host model".
 *
 * <p>Thread safety: stateless.
 */
final class HostFile {
  private static final int CHUNK = 64 << 10;
  private static final int FIRST_READ = 4096;

  private HostFile() {}

  /**
   * Reads {@code file} as UTF-8, or empty if absent, a directory, unreadable or refused (a refusal
   * also goes to {@code refused}); a last link must stay in {@code tree} (null for {@code /}).
   */
  static Optional<String> read(Path file, Path tree, int limit, Consumer<String> refused) {
    Path target = file;
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (attributes.isSymbolicLink()) {
        target = file.toRealPath();
        if (tree != null && !target.startsWith(tree)) {
          refused.accept(file + ": a link to " + target + " (expected: a file under " + tree + ")");
          return Optional.empty();
        }
        attributes =
            Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      }
    } catch (IOException | SecurityException e) {
      return Optional.empty(); // absent, a dangling link, EACCES on a directory: unreadable
    }
    if (attributes.isDirectory()) {
      return Optional.empty();
    }
    if (!attributes.isRegularFile()) {
      refused.accept(
          file + ": " + kind(target) + " (expected: a regular file; not opened, it could block)");
      return Optional.empty();
    }
    try (SeekableByteChannel in =
        Files.newByteChannel(target, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      byte[] buf = new byte[Math.min(FIRST_READ, limit + 1)];
      int n = 0;
      for (int r; (r = in.read(ByteBuffer.wrap(buf, n, Math.min(CHUNK, buf.length - n)))) >= 0; ) {
        n += r;
        if (n > limit) {
          refused.accept(file + ": more than " + limit + " bytes (expected: " + rule(limit) + ")");
          return Optional.empty();
        }
        if (n == buf.length) {
          buf = Arrays.copyOf(buf, (int) Math.min((long) limit + 1, 2L * buf.length));
        }
      }
      return Optional.of(new String(buf, 0, n, StandardCharsets.UTF_8));
    } catch (IOException | SecurityException e) {
      // EACCES, EINVAL on some sysfs attributes, a file that went away or changed into a link
      return Optional.empty();
    }
  }

  private static String rule(int limit) {
    return limit == KernelLimits.PAGE
        ? "a sysfs attribute, at most a page"
        : "at most " + limit + ", what this file holds on a kernel of 8192 CPUs";
  }

  /** What a file other than a regular one or a directory is, from its {@code st_mode}. */
  static String kind(Path file) {
    int mode;
    try {
      mode = (Integer) Files.getAttribute(file, "unix:mode"); // the JDK's view on Linux
    } catch (IOException | RuntimeException e) {
      return "not a regular file";
    }
    switch (mode & 0170000) {
      case 0010000:
        return "a FIFO";
      case 0020000:
        return "a character device";
      case 0060000:
        return "a block device";
      case 0140000:
        return "a socket";
      default:
        return "not a regular file";
    }
  }
}
