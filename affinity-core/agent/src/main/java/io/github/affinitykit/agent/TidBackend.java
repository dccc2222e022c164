package io.github.affinitykit.agent;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;

/**
 * The kit's backend, which can stand the agent's scanning thread in for another thread: while
 * {@link #actFor} is in force on the calling thread, "the calling thread" (its id, tid 0) means
 * that thread. So a thread that was running before the agent loaded, or renamed since, goes through
 * a seat's bind, the one way core binds a thread: reservation, lease, kit's leases, JFR event.
 *
 * <p>Thread safety: safe for concurrent use; the stand-in is per calling thread.
 */
final class TidBackend implements AffinityBackend {
  private final AffinityBackend os;
  private final ThreadLocal<Integer> standIn = new ThreadLocal<>();

  TidBackend(AffinityBackend os) {
    this.os = os;
  }

  /** Makes the calling thread stand in for thread {@code tid} until {@link #done()}. */
  void actFor(int tid) {
    standIn.set(tid);
  }

  /** Ends {@link #actFor}. */
  void done() {
    standIn.remove();
  }

  private int resolve(int tid) {
    Integer other = standIn.get();
    return tid == 0 && other != null ? other : tid;
  }

  @Override
  public boolean isSupported() {
    return os.isSupported();
  }

  @Override
  public String reason() {
    return os.reason();
  }

  @Override
  public int currentThreadId() {
    Integer other = standIn.get();
    return other != null ? other : os.currentThreadId();
  }

  @Override
  public int currentCpu() {
    return os.currentCpu();
  }

  @Override
  public CpuSet getAffinity(int tid) {
    return os.getAffinity(resolve(tid));
  }

  @Override
  public void setAffinity(int tid, CpuSet cpus) {
    os.setAffinity(resolve(tid), cpus);
  }
}
