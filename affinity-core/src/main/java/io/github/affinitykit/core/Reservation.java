package io.github.affinitykit.core;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A CPU reserved across processes: its lock file ({@code cpu-<N>.lock}) is locked by this JVM until
 * {@link #close()}, or until the process dies (the kernel drops the lock, {@code kill -9}
 * included). Reserving does not pin anything: bind a thread with {@link AffinityBackend}.
 *
 * <p>Thread safety: safe to use from any thread; {@link #close()} may be called from any thread,
 * any number of times.
 */
public final class Reservation implements AutoCloseable {
  private final CpuReservations owner;
  private final int cpu;
  private final Path lockFile;
  private final AtomicBoolean closed = new AtomicBoolean();

  Reservation(CpuReservations owner, int cpu, Path lockFile) {
    this.owner = owner;
    this.cpu = cpu;
    this.lockFile = lockFile;
  }

  /** Returns the reserved CPU. */
  public int cpu() {
    return cpu;
  }

  /** Returns the lock file that holds the reservation. */
  public Path lockFile() {
    return lockFile;
  }

  /** Returns whether this reservation has not been closed yet. */
  public boolean isHeld() {
    return !closed.get();
  }

  /**
   * Releases the CPU: unlocks and closes the lock file (which stays on disk, naming its last
   * holder). Idempotent; never throws.
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      owner.release(cpu);
    }
  }

  @Override
  public String toString() {
    return "Reservation[cpu " + cpu + ", " + lockFile + (isHeld() ? "" : ", closed") + "]";
  }
}
