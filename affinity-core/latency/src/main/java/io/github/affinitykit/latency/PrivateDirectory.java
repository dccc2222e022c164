package io.github.affinitykit.latency;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * A directory only this process's user may write, and its files: made {@code 0700} when missing;
 * refused if it, or a file read from it, is a symbolic link, owned by another user, or writable by
 * its group or others. Nothing is followed through a link ({@code NOFOLLOW_LINKS}), and a file is
 * written whole to a temporary file beside it, forced to disk and renamed over the old one, so a
 * reader sees the old file or the new, never a part. Once the directory passes, nobody else can put
 * or swap a file in it, so the files' checks and their reads cannot be raced by another user.
 *
 * <p>Thread safety: immutable; concurrent writers of one file leave one of their files whole.
 */
final class PrivateDirectory {
  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> FILE_MODE =
      PosixFilePermissions.fromString("rw-------");

  private final Path path;
  private final IntSupplier uid;

  PrivateDirectory(Path path, IntSupplier uid) {
    this.path = path;
    this.uid = uid;
  }

  Path path() {
    return path;
  }

  /** Makes the directory if missing (its parents as the umask says), then checks it. */
  void ensure() {
    try {
      if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) {
          Files.createDirectories(parent);
        }
        try {
          Files.createDirectory(path, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (FileAlreadyExistsException raced) {
          // made meanwhile: checked below like any other
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("latency cache: " + path + " cannot be made", e);
    }
    check(path, true);
  }

  /** The text of a file of the directory, after its checks; empty if it does not exist. */
  Optional<String> read(String name, int maxBytes) {
    Path file = path.resolve(name);
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    check(file, false);
    try (InputStream in =
        Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.of(new String(in.readNBytes(maxBytes), StandardCharsets.UTF_8));
    } catch (NoSuchFileException gone) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("latency cache: " + file + " cannot be read", e);
    }
  }

  /** Writes a file of the directory atomically: a {@code 0600} temporary file, then a rename. */
  Path write(String name, String text) {
    Path file = path.resolve(name);
    Path temp = null;
    try {
      temp =
          Files.createTempFile(
              path, "." + name, ".tmp", PosixFilePermissions.asFileAttribute(FILE_MODE));
      try (FileChannel out =
          FileChannel.open(temp, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
        ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
          out.write(bytes);
        }
        out.force(true);
      }
      try {
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        throw new UncheckedIOException(
            "latency cache: " + path + " (expected: a file system that renames atomically)", e);
      }
      temp = null;
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("latency cache: " + file + " cannot be written", e);
    } finally {
      if (temp != null) {
        try {
          Files.deleteIfExists(temp);
        } catch (IOException ignored) {
          // the rename's failure is the one to report
        }
      }
    }
  }

  /** Refuses a link, another type, another owner, or group or world write. */
  void check(Path p, boolean directory) {
    PosixFileAttributes a;
    int owner;
    try {
      a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      owner = (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      throw new UncheckedIOException("latency cache: " + p + " cannot be read", e);
    }
    String kind = directory ? "a directory" : "a regular file";
    if (a.isSymbolicLink()) {
      throw refused(p, "a symbolic link", kind + ", not a symbolic link");
    }
    if (directory ? !a.isDirectory() : !a.isRegularFile()) {
      throw refused(p, "not " + kind, kind);
    }
    int me = uid.getAsInt();
    if (owner != me) {
      throw refused(p, "owned by uid " + owner, "owned by uid " + me + ", this process's user");
    }
    Set<PosixFilePermission> mode = a.permissions();
    if (mode.contains(PosixFilePermission.GROUP_WRITE)
        || mode.contains(PosixFilePermission.OTHERS_WRITE)) {
      throw refused(
          p, "mode " + PosixFilePermissions.toString(mode), "writable by its owner alone");
    }
  }

  private static IllegalStateException refused(Path p, String what, String rule) {
    return new IllegalStateException(
        "latency cache: " + p + " " + what + " (expected: " + rule + ")");
  }
}
