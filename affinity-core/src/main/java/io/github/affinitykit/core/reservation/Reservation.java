package io.github.affinitykit.core.reservation;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A CPU (or several: {@link #cpus()}) reserved across processes: its lock files ({@code
 * cpu-<N>.lock} and {@code cpu-<N>.lock.affinitykit}, see {@link CpuReservations}) are locked by
 * this JVM until {@link #close()}, or until the process dies (the kernel drops the lock, {@code
 * kill -9} included). Reserving does not pin anything: bind a thread with {@link AffinityBackend}.
 *
 * <p>Thread safety: safe to use from any thread; {@link #close()} may be called from any thread,
 * any number of times.
 */
public final class Reservation implements AutoCloseable {
  private final CpuReservations owner;
  private final int cpu;
  private final CpuSet cpus;
  private final Path lockFile;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile boolean lost;

  Reservation(CpuReservations owner, int cpu, CpuSet cpus, Path lockFile) {
    this.owner = owner;
    this.cpu = cpu;
    this.cpus = cpus;
    this.lockFile = lockFile;
  }

  /** {@return the CPU id, 0-based; unchanged by {@link #close()}} */
  public int cpu() {
    return cpu;
  }

  /**
   * {@return the CPUs reserved: {@link #cpu()} and those reserved with it ({@link
   * CpuReservations#tryReserve(int, CpuSet)}); unchanged by {@link #close()}}
   */
  public CpuSet cpus() {
    return cpus;
  }

  /** {@return the path of OpenHFT's {@code cpu-<N>.lock} for this CPU} */
  public Path lockFile() {
    return lockFile;
  }

  /** {@return true until {@link #close()}, even when the reservation is lost} */
  public boolean isHeld() {
    return !closed.get();
  }

  /**
   * Checks that the lock files are still the files their names point to: one deleted or replaced
   * (OpenHFT deletes {@code cpu-<N>.lock} on release) no longer keeps others off the CPU.
   *
   * @return {@link ReservationStatus#RESERVED} while intact, {@link ReservationStatus#LOST} once
   *     lost (also after {@link #close()})
   */
  public ReservationStatus verify() {
    if (owner.verify(this)) {
      lost = true;
    }
    return lost ? ReservationStatus.LOST : ReservationStatus.RESERVED;
  }

  /** {@return whether a check ({@link #verify()}, or the one on release) found it lost; no I/O} */
  public boolean isLost() {
    return lost;
  }

  /** Releases the CPU: checks, unlocks and keeps its files on disk. Idempotent; never throws. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true) && owner.release(cpus)) {
      lost = true;
    }
  }

  @Override
  public String toString() {
    String state = (lost ? ", lost" : "") + (isHeld() ? "" : ", closed");
    return "Reservation[cpu " + cpus + ", " + lockFile + state + "]";
  }
}
