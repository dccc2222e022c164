package io.github.affinitykit.core;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;

/**
 * The one {@link FileChannel} this JVM keeps on one {@code cpu-<N>.lock} file, and its lock.
 *
 * <p>The lock is OpenHFT's: an exclusive {@link FileChannel#tryLock(long, long, boolean)} of the
 * whole file, a POSIX {@code fcntl} record lock, which conflicts with OpenHFT's own exclusive and
 * shared probes. POSIX drops every lock a process holds on a file when it closes <em>any</em>
 * descriptor of that file, so a channel is closed only when the JDK's lock table has shown that no
 * other channel of this JVM holds a lock on the file: after our own lock, or after the kernel said
 * another process holds it. When another channel of this JVM holds it, ours stays open (parked) and
 * is reused on the next attempt.
 *
 * <p>Thread safety: not thread-safe; {@link CpuReservations} calls it under its monitor.
 */
final class LockFile {
  private static final int MAX_ATTEMPTS = 5;

  private final Path path;
  private FileChannel channel; // null: closed; open without lock: parked
  private FileLock lock; // non-null while reserved
  private String text = "";

  LockFile(Path path) {
    this.path = path;
  }

  boolean isLocked() {
    return lock != null;
  }

  /**
   * The file's text without opening it again: what this JVM wrote if it holds the lock, else read
   * through the parked channel; empty if this JVM has no channel on the file.
   */
  Optional<String> knownText() {
    if (lock != null) {
      return Optional.of(text);
    }
    return channel == null ? Optional.empty() : Optional.of(LockText.readQuietly(channel));
  }

  /**
   * Tries to lock the file and write {@code newText} into it.
   *
   * @return null when locked, else the failure
   */
  ReservationResult tryLock(int cpu, String newText) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (channel == null) {
        try {
          channel = open(path);
        } catch (IOException e) {
          return unavailable(cpu, "cannot open " + path + " for writing: " + LockText.describe(e));
        }
      }
      FileLock l;
      try {
        l = channel.tryLock(0, Long.MAX_VALUE, false);
      } catch (OverlappingFileLockException e) {
        return ReservationResult.failed(
            cpu,
            ReservationStatus.HELD_BY_THIS_JVM,
            ProcessHandle.current().pid(),
            "cpu "
                + cpu
                + ": "
                + path
                + " is locked by another channel of this JVM"
                + " (OpenHFT AffinityLock? another class loader?)");
      } catch (IOException e) {
        closeChannel();
        return unavailable(cpu, "cannot lock " + path + ": " + LockText.describe(e));
      }
      if (l == null) {
        String holder = LockText.readQuietly(channel);
        closeChannel();
        return ReservationResult.failed(
            cpu,
            ReservationStatus.HELD_BY_OTHER_PROCESS,
            LockText.pidOf(holder),
            "cpu " + cpu + ": " + path + " is locked by " + LockText.describeHolder(holder));
      }
      if (isReplaced()) { // its holder deleted it as it let go: lock the file now at the path
        closeChannel();
        continue;
      }
      try {
        LockText.write(channel, newText);
      } catch (IOException e) {
        closeChannel();
        return unavailable(cpu, "cannot write " + path + ": " + LockText.describe(e));
      }
      lock = l;
      text = newText;
      return null;
    }
    return unavailable(cpu, path + " was replaced " + MAX_ATTEMPTS + " times while locking it");
  }

  /** Closes the channel, which drops the lock: the JDK releases it, the kernel drops it anyway. */
  void release() {
    lock = null;
    text = "";
    closeChannel();
  }

  private static FileChannel open(Path path) throws IOException {
    try {
      return FileChannel.open(
          path,
          Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE),
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-rw-rw-")));
    } catch (UnsupportedOperationException e) { // no POSIX permissions on this file system
      return FileChannel.open(
          path, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE);
    }
  }

  /**
   * Whether the path no longer names the file our channel has open: gone, or (Linux) one of this
   * process's descriptors points to {@code "<path> (deleted)"}. Uses stat and readlink only: never
   * opens the lock file.
   */
  private boolean isReplaced() {
    if (!Files.exists(path)) {
      return true;
    }
    Path fds = Path.of("/proc/self/fd");
    if (!Files.isDirectory(fds)) {
      return false;
    }
    String deleted = path + " (deleted)";
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(fds)) {
      for (Path fd : entries) {
        if (deleted.equals(readLinkQuietly(fd))) {
          return true;
        }
      }
    } catch (IOException e) {
      return false;
    }
    return false;
  }

  private static String readLinkQuietly(Path link) {
    try {
      return Files.readSymbolicLink(link).toString();
    } catch (IOException e) {
      return ""; // closed since listed
    }
  }

  private static ReservationResult unavailable(int cpu, String reason) {
    return ReservationResult.failed(
        cpu, ReservationStatus.UNAVAILABLE, -1, "cpu " + cpu + ": " + reason);
  }

  private void closeChannel() {
    if (channel != null) {
      try {
        channel.close(); // also releases our lock if we hold one
      } catch (IOException e) {
        // the descriptor is gone either way
      }
      channel = null;
    }
  }
}
