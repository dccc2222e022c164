package io.github.affinitykit.core.reservation;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;

/**
 * A {@link LockFile} through Java's {@link FileChannel}, for where the native layer has no file
 * calls (not Linux, a 32-bit JVM, JNA unable to load on JDK 17-21): opened with {@link
 * LinkOption#NOFOLLOW_LINKS}, locked with a classic POSIX lock. The JDK cannot {@code fstat} a
 * channel, so the checks are by path: before the open, and after the lock the path must still name
 * the same regular file with one link. A file swapped in between those two looks can be locked
 * (never a symbolic link's target); it is still never written before the checks pass. Closing the
 * channel drops this process's POSIX locks on the file, so the channel stays open (parked) until
 * the path names another file.
 *
 * <p>Thread safety: not thread-safe (see {@link LockFile}).
 */
final class ChannelLockFile implements LockFile {
  private static final int MAX_ATTEMPTS = 5;
  private static final int MAX_TEXT_BYTES = 256;
  private static final Set<OpenOption> OPEN =
      Set.of(
          StandardOpenOption.READ,
          StandardOpenOption.WRITE,
          StandardOpenOption.CREATE,
          LinkOption.NOFOLLOW_LINKS);

  private final Path path;
  private FileChannel channel;
  private FileStat opened;
  private FileLock lock;

  ChannelLockFile(Path path) {
    this.path = path;
  }

  @Override
  public Path path() {
    return path;
  }

  @Override
  public boolean isLocked() {
    return lock != null;
  }

  @Override
  public LockOutcome tryLock() {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      try {
        if (channel == null) {
          Optional<FileStat> before = FileStat.lstat(path);
          if (before.isPresent() && before.get().problem().isPresent()) {
            return LockOutcome.refused(before.get().problem().get());
          }
          channel = open(path);
          opened = FileStat.lstat(path).orElse(null);
          if (opened == null || before.isPresent() && !before.get().sameFile(opened)) {
            closeChannel();
            continue;
          }
        }
        FileLock l = channel.tryLock(0, Long.MAX_VALUE, false);
        if (l == null) {
          return LockOutcome.held(-1, read());
        }
        lock = l;
        if (check() == Check.INTACT) {
          return LockOutcome.LOCKED;
        }
        unlock();
        closeChannel();
      } catch (OverlappingFileLockException e) {
        return LockOutcome.held(ProcessHandle.current().pid(), new byte[0]);
      } catch (IOException e) {
        closeChannel();
        return LockOutcome.failed("cannot lock " + path + ": " + LockText.describe(e));
      }
    }
    return LockOutcome.replaced(MAX_ATTEMPTS);
  }

  private static FileChannel open(Path path) throws IOException {
    try {
      return FileChannel.open(
          path,
          OPEN,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-rw-rw-")));
    } catch (UnsupportedOperationException e) { // no POSIX permissions on this file system
      return FileChannel.open(path, OPEN);
    }
  }

  @Override
  public void write(byte[] text) throws IOException {
    channel.truncate(0);
    ByteBuffer bytes = ByteBuffer.wrap(text);
    long position = 0;
    while (bytes.hasRemaining()) {
      position += channel.write(bytes, position);
    }
  }

  @Override
  public byte[] read() {
    ByteBuffer bytes = ByteBuffer.allocate(MAX_TEXT_BYTES);
    try {
      if (channel != null) {
        channel.read(bytes, 0);
      }
    } catch (IOException e) {
      return new byte[0];
    }
    return Arrays.copyOf(bytes.array(), bytes.position());
  }

  @Override
  public Check check() {
    try {
      Optional<FileStat> now = FileStat.lstat(path);
      if (now.isEmpty()) {
        return Check.UNLINKED;
      }
      boolean same = opened != null && now.get().sameFile(opened);
      return same && now.get().problem().isEmpty() ? Check.INTACT : Check.REPLACED;
    } catch (IOException e) {
      return Check.UNLINKED;
    }
  }

  @Override
  public void unlock() {
    if (lock != null) {
      try {
        lock.release();
      } catch (IOException e) {
        closeChannel(); // the kernel drops it with the descriptor
      }
      lock = null;
    }
  }

  private void closeChannel() {
    lock = null;
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        // the descriptor is gone either way
      }
      channel = null;
    }
  }
}
