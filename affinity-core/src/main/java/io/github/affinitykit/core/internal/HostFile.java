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
 * One bounded, type-checked read of a file of a host tree, for {@link SysFs}: the only place this
 * library opens a kernel file to read it.
 *
 * <ol>
 *   <li>The file's type is read before it is opened, without following a last link ({@code lstat});
 *       a link is resolved and its target's type read, and under a root other than {@code /} the
 *       target must lie in the tree (sysfs links such as {@code device} do; a link to {@code
 *       /dev/zero} or {@code /proc/kmsg} does not).
 *   <li>Only a regular file is opened: opening a FIFO blocks until someone writes to it, a device
 *       reads without end ({@code /dev/zero}) or blocks ({@code /dev/tty}), a socket cannot be
 *       opened. Such a file is refused without being opened. It is opened with {@code O_NOFOLLOW}.
 *   <li>At most {@code limit + 1} bytes are read, in chunks of 64 KiB; a file longer than its limit
 *       ({@link KernelLimits#bytes}) is refused, not cut: a truncated table would read as a
 *       different one.
 * </ol>
 *
 * <p>What stays: the check and the open are two calls, so a file renamed over a checked one in
 * between (by someone who may write the tree while it is read; never in {@code /sys} or {@code
 * /proc}) can still block the open. Closing that would take {@code open(O_NONBLOCK)} and {@code
 * fstat} through the native layer, which a probe does not load (it is a third of a short run's
 * time); see docs/ARCHITECTURE.md.
 *
 * <p>Thread safety: stateless.
 */
final class HostFile {
  private static final int CHUNK = 64 << 10;
  private static final int FIRST_READ = 4096;

  private HostFile() {}

  /**
   * Reads {@code file}: its bytes as UTF-8, or empty if it is absent, a directory or unreadable, or
   * refused; a refusal is also passed to {@code refused}, naming the file and the rule.
   *
   * @param file the file
   * @param tree the real path of the tree's root, which a last link must stay in; null for {@code
   *     /}
   * @param limit the most bytes the file may hold
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
