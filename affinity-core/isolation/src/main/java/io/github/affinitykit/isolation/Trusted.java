package io.github.affinitykit.isolation;

import io.github.affinitykit.core.internal.natives.NativeLayer;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;

/**
 * What root trusts in the journal directory, as systemd and runc do: only what could have been
 * written by this user alone. The directory is made {@code 0700} by this process's effective user
 * (the mode set after creating it, whatever the umask); a directory or file is trusted only if it
 * is not a symbolic link (never followed), is owned by the effective user, and is writable by
 * neither group nor others; a file must also be regular with one name; an existing ancestor of the
 * directory must not be writable by others unless sticky (as {@code /tmp}). Each refusal reads
 * {@code name: value (expected: rule)} and names the path.
 *
 * <p>Thread safety: stateless.
 */
final class Trusted {
  private static final int S_IFMT = 0170000;
  private static final int S_IFDIR = 0040000;
  private static final int S_IFREG = 0100000;
  private static final int S_IFLNK = 0120000;
  private static final int S_ISVTX = 01000;
  private static final int GROUP_OR_OTHER_WRITE = 022;
  private static final int OTHER_WRITE = 02;
  private static final String ATTRIBUTES = "unix:mode,uid,nlink,size";

  private Trusted() {}

  /**
   * Makes {@code dir} if it is missing ({@code 0700}, its missing parents as the umask has them),
   * then checks it.
   *
   * @throws IOException if it cannot be made, or is not to be trusted (the message says why)
   */
  static void ensureDirectory(Path dir) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      Path parent = dir.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      try {
        Files.createDirectory(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
      } catch (java.nio.file.FileAlreadyExistsException e) {
        // made meanwhile by another isolator: checked below like any other
      }
    }
    Optional<String> why = directory(dir);
    if (why.isPresent()) {
      throw new FileSystemException(dir.toString(), null, why.get());
    }
  }

  /** Why {@code dir} is not to be trusted; empty if it is (or does not exist). */
  static Optional<String> directory(Path dir) {
    try {
      Map<String, Object> a = Files.readAttributes(dir, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
      Optional<String> own = owned("journal directory", dir, a, S_IFDIR);
      return own.isPresent() ? own : ancestors(dir.toAbsolutePath().getParent());
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException | UnsupportedOperationException e) {
      return Optional.of(
          "journal directory: " + dir + " (expected: readable attributes: " + e + ")");
    }
  }

  /**
   * Why file {@code file} ({@code what}: "journal", "lock file") is not to be trusted, or is over
   * {@code maxBytes}; empty if it is trusted or does not exist.
   */
  static Optional<String> file(String what, Path file, long maxBytes) {
    try {
      Map<String, Object> a = Files.readAttributes(file, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
      Optional<String> own = owned(what, file, a, S_IFREG);
      if (own.isPresent()) {
        return own;
      }
      if ((Integer) a.get("nlink") != 1) {
        return Optional.of(
            what
                + ": "
                + file
                + " has "
                + a.get("nlink")
                + " links (expected: 1, a file of its own)");
      }
      long size = (Long) a.get("size");
      return size > maxBytes
          ? Optional.of(
              what + ": " + file + " " + size + " bytes (expected: at most " + maxBytes + ")")
          : Optional.empty();
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException | UnsupportedOperationException e) {
      return Optional.of(what + ": " + file + " (expected: readable attributes: " + e + ")");
    }
  }

  private static Optional<String> owned(String what, Path p, Map<String, Object> a, int type) {
    int mode = (Integer) a.get("mode");
    if ((mode & S_IFMT) == S_IFLNK) {
      return Optional.of(what + ": " + p + " is a symbolic link (expected: none: never followed)");
    }
    if ((mode & S_IFMT) != type) {
      return Optional.of(
          what
              + ": "
              + p
              + " mode "
              + Integer.toOctalString(mode)
              + " (expected: "
              + (type == S_IFDIR ? "a directory" : "a regular file")
              + ")");
    }
    long euid = effectiveUid();
    int uid = (Integer) a.get("uid");
    if (uid != euid) {
      return Optional.of(
          what
              + ": "
              + p
              + " owned by uid "
              + uid
              + " (expected: uid "
              + euid
              + ", this process's effective user)");
    }
    if ((mode & GROUP_OR_OTHER_WRITE) != 0) {
      return Optional.of(
          what
              + ": "
              + p
              + " mode "
              + String.format("%04o", mode & 07777)
              + " (expected: writable by its owner alone, as 0700 or 0600)");
    }
    return Optional.empty();
  }

  /** An ancestor others may write, not sticky, could swap the directory: refused. */
  private static Optional<String> ancestors(Path p) throws IOException {
    for (Path a = p; a != null; a = a.getParent()) {
      int mode = (Integer) Files.getAttribute(a, "unix:mode");
      if ((mode & OTHER_WRITE) != 0 && (mode & S_ISVTX) == 0) {
        return Optional.of(
            "journal directory's parent: "
                + a
                + " mode "
                + String.format("%04o", mode & 07777)
                + " (expected: not writable by others, or sticky as /tmp)");
      }
    }
    return Optional.empty();
  }

  /**
   * This process's effective uid ({@code geteuid} through the native layer, the one the lock files
   * use too), -1 without native file calls (isolation is refused there anyway: {@link LockedFile}).
   */
  static long effectiveUid() {
    return NativeLayer.system().files().map(f -> (long) f.effectiveUid()).orElse(-1L);
  }
}
