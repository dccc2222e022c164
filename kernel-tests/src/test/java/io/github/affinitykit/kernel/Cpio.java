package io.github.affinitykit.kernel;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * Writes an initramfs: a {@code cpio -H newc} archive, uncompressed (the kernel unpacks it as is,
 * and archives may be concatenated, so a cached base and a fresh overlay make one image).
 *
 * <p>Thread safety: not thread-safe; one writer per archive.
 */
final class Cpio implements AutoCloseable {
  private static final int DIR = 0040755;
  private static final int FILE = 0100644;
  private static final int EXEC = 0100755;
  private static final int LINK = 0120777;

  private final OutputStream out;
  private final Set<String> dirs = new HashSet<>();
  private long written;
  private int ino = 1;

  Cpio(Path file) throws IOException {
    this.out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
  }

  /** Adds {@code source} as {@code path} (parents created), executable if the source is. */
  void file(String path, Path source) throws IOException {
    parents(path);
    byte[] data = Files.readAllBytes(source);
    entry(path, Files.isExecutable(source) ? EXEC : FILE, data);
  }

  /** Adds {@code text} as {@code path}, executable or not. */
  void text(String path, String text, boolean executable) throws IOException {
    parents(path);
    entry(path, executable ? EXEC : FILE, text.getBytes(StandardCharsets.UTF_8));
  }

  /** Adds a symbolic link {@code path} → {@code target}. */
  void symlink(String path, String target) throws IOException {
    parents(path);
    entry(path, LINK, target.getBytes(StandardCharsets.UTF_8));
  }

  /** Adds a directory and its parents. */
  void dir(String path) throws IOException {
    parents(path + "/x");
  }

  /** Adds every regular file under {@code tree} below {@code prefix}, keeping symlinks. */
  void tree(String prefix, Path tree) throws IOException {
    dir(prefix);
    try (var files = Files.walk(tree)) {
      for (Path p : (Iterable<Path>) files.sorted()::iterator) {
        String name = prefix + "/" + tree.relativize(p).toString().replace('\\', '/');
        if (Files.isSymbolicLink(p)) {
          symlink(name, Files.readSymbolicLink(p).toString());
        } else if (Files.isDirectory(p)) {
          dir(name);
        } else {
          file(name, p);
        }
      }
    }
  }

  private void parents(String path) throws IOException {
    int slash = path.lastIndexOf('/');
    if (slash <= 0) {
      return;
    }
    String parent = path.substring(0, slash);
    if (dirs.add(parent)) {
      parents(parent);
      entry(parent, DIR, new byte[0]);
    }
  }

  private void entry(String path, int mode, byte[] data) throws IOException {
    String name = path.startsWith("/") ? path.substring(1) : path;
    byte[] nameBytes = (name + "\0").getBytes(StandardCharsets.UTF_8);
    String header =
        String.format(
            "070701%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x",
            ino++, mode, 0, 0, 1, 0, data.length, 0, 0, 0, 0, nameBytes.length, 0);
    write(header.getBytes(StandardCharsets.US_ASCII));
    write(nameBytes);
    pad();
    write(data);
    pad();
  }

  private void write(byte[] b) throws IOException {
    out.write(b);
    written += b.length;
  }

  private void pad() throws IOException {
    while (written % 4 != 0) {
      out.write(0);
      written++;
    }
  }

  /** Writes the trailer and closes the file. */
  @Override
  public void close() throws IOException {
    entry("TRAILER!!!", 0, new byte[0]);
    out.close();
  }
}
