package io.github.affinitykit.core.reservation;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;

/**
 * A {@link LockFile} through Java's {@link FileChannel}, where the native layer has no file calls:
 * opened with {@link LinkOption#NOFOLLOW_LINKS}, locked with a classic POSIX lock. The JDK cannot
 * {@code fstat} or {@code fchmod} a channel, so the checks are by path before the open and after
 * the lock: a file swapped in between can be locked (never a link's target), but nothing is written
 * before the checks pass. The channel stays open (parked): closing it drops this process's POSIX
 * locks on the file.
 *
 * <p>Thread safety: not thread-safe (see {@link LockFile}).
 */
final class ChannelLockFile implements LockFile {
  private static final int MAX_ATTEMPTS = 5;
  private static final int MAX_TEXT_BYTES = 256;
  private static final Set<OpenOption> OPEN =
      Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
  private static final Set<OpenOption> CREATE =
      Set.of(
          StandardOpenOption.READ,
          StandardOpenOption.WRITE,
          StandardOpenOption.CREATE_NEW,
          LinkOption.NOFOLLOW_LINKS);
  private static final FileAttribute<Set<PosixFilePermission>> RW_RW_RW =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-rw-rw-"));

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
  public ReservationResult tryLock(int cpu) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      try {
        if (channel == null) {
          Optional<FileStat> before = FileStat.lstat(path);
          if (before.isPresent() && before.get().problem().isPresent()) {
            return ReservationResult.refused(cpu, path, before.get().problem().get());
          }
          channel = open(path, before.isEmpty());
          opened = FileStat.lstat(path).orElse(null);
          if (opened == null || before.isPresent() && !before.get().sameFile(opened)) {
            closeChannel();
            continue;
          }
          if (before.isEmpty()) {
            share(path);
          }
        }
        FileLock l = channel.tryLock(0, Long.MAX_VALUE, false);
        if (l == null) {
          return ReservationResult.held(cpu, path, -1, read());
        }
        lock = l;
        if (check() == ReservationStatus.RESERVED) {
          return null;
        }
        unlock();
        closeChannel();
      } catch (FileAlreadyExistsException | NoSuchFileException e) {
        closeChannel(); // raced with another creator or deleter: look again
      } catch (AccessDeniedException e) {
        return denied(cpu);
      } catch (OverlappingFileLockException e) {
        return ReservationResult.held(cpu, path, ProcessHandle.current().pid(), new byte[0]);
      } catch (IOException e) {
        closeChannel();
        return ReservationResult.unavailable(
            cpu, "cannot lock " + path + ": " + LockText.describe(e));
      }
    }
    return ReservationResult.replaced(cpu, path, MAX_ATTEMPTS);
  }

  /** {@code EACCES} opening the file: another user's, whose mode leaves this user out. */
  private ReservationResult denied(int cpu) {
    try {
      Optional<FileStat> there = FileStat.lstat(path);
      if (there.isPresent()) {
        return ReservationResult.denied(cpu, path, there.get());
      }
    } catch (IOException e) {
      // the directory itself refuses: said below
    }
    return ReservationResult.unavailable(
        cpu, "cannot open " + path + " for writing: permission denied");
  }

  /**
   * Creates the file exclusively when {@code create}, else opens it without {@code O_CREAT}, which
   * {@code fs.protected_regular} refuses on another user's file in a sticky directory.
   */
  private static FileChannel open(Path path, boolean create) throws IOException {
    if (!create) {
      return FileChannel.open(path, OPEN);
    }
    try {
      return FileChannel.open(path, CREATE, RW_RW_RW);
    } catch (UnsupportedOperationException e) { // no POSIX permissions on this file system
      return FileChannel.open(path, CREATE);
    }
  }

  /**
   * Makes the file this process created {@code 0666} (the umask cut the mode asked), by path
   * without following a link: a swap just before is this implementation's window.
   */
  private static void share(Path path) {
    PosixFileAttributeView view =
        Files.getFileAttributeView(path, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
    try {
      if (view != null) {
        view.setPermissions(RW_RW_RW.value());
      }
    } catch (IOException e) {
      // this process can still lock it; other users are told whose file it is and the fix
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
  public ReservationStatus check() {
    try {
      Optional<FileStat> now = FileStat.lstat(path);
      if (now.isEmpty()) {
        return ReservationStatus.LOST; // deleted
      }
      boolean same = opened != null && now.get().sameFile(opened);
      return same && now.get().problem().isEmpty()
          ? ReservationStatus.RESERVED
          : ReservationStatus.LOST; // replaced
    } catch (IOException e) {
      return ReservationStatus.LOST;
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
