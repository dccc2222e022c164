package io.github.affinitykit.core.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Makes the files of a hostile host tree ({@code doctor --root} on a tree someone else made): a
 * FIFO, a link to a device, a socket or an oversized file in place of a kernel file, in a copy of a
 * fixture. Each replaces whatever was at the path (deleted first: writing to a FIFO would block).
 *
 * <p>Thread safety: stateless; the files are the caller's.
 */
public final class HostileFiles {
  private HostileFiles() {}

  /** Copies the tree at {@code from} to {@code to}: directories, files, and links as links. */
  public static Path copy(Path from, Path to) {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        Path dest = to.resolve(from.relativize(p).toString());
        if (Files.isSymbolicLink(p)) {
          Files.createSymbolicLink(dest, Files.readSymbolicLink(p));
        } else if (Files.isDirectory(p)) {
          Files.createDirectories(dest);
        } else {
          Files.copy(p, dest, StandardCopyOption.REPLACE_EXISTING);
        }
      }
      return to;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Replaces {@code file} with a FIFO ({@code mkfifo}), which blocks whoever opens it to read. */
  public static void fifo(Path file) {
    clear(file);
    try {
      Process p = new ProcessBuilder("mkfifo", file.toString()).inheritIO().start();
      if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IllegalStateException("mkfifo " + file + ": failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Replaces {@code file} with a symbolic link to {@code target} ({@code /dev/zero}...). */
  public static void link(Path file, String target) {
    clear(file);
    try {
      Files.createSymbolicLink(file, Path.of(target));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Replaces {@code file} with a listening UNIX socket; closing the channel leaves the file. */
  public static ServerSocketChannel socket(Path file) {
    clear(file);
    try {
      ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      s.bind(UnixDomainSocketAddress.of(file));
      return s;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Replaces {@code file} with {@code bytes} bytes of {@code "0"}: a valid list, too long. */
  public static void sized(Path file, int bytes) {
    clear(file);
    byte[] zeros = new byte[bytes];
    Arrays.fill(zeros, (byte) '0');
    try {
      Files.write(file, zeros);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void clear(Path file) {
    try {
      Files.createDirectories(file.getParent());
      if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(file)) {
        Files.delete(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
