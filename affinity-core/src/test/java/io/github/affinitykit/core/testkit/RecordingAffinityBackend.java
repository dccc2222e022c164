package io.github.affinitykit.core.testkit;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.natives.Errno;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.os.AffinityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fake {@link AffinityBackend} for tests: simulates a CPU mask per Java thread, records every
 * {@code getAffinity}/{@code setAffinity} call, and can be told to fail the next {@code
 * setAffinity}. It follows the kernel's rules: a thread starts with the mask of the thread that
 * created it (or all host CPUs if that thread never touched this backend), {@code setAffinity}
 * keeps only host CPUs and fails with {@code EINVAL} if none is left, an unknown thread id fails
 * with {@code ESRCH}. A simulated thread runs on the first CPU of its mask.
 *
 * <p>Thread ids are simulated (from 1000, one per Java thread, in the order threads first use this
 * backend or are created by a thread that did); states of ended threads are kept.
 *
 * <p>Thread safety: safe for concurrent use by any number of threads; {@link #calls()} is a
 * consistent snapshot.
 */
public final class RecordingAffinityBackend implements AffinityBackend {
  /**
   * One recorded call.
   *
   * @param operation {@code "getAffinity"} or {@code "setAffinity"}
   * @param tid the simulated thread id the call addressed ({@code 0} resolved to the caller's)
   * @param cpus the CPUs passed to {@code setAffinity}; empty for {@code getAffinity}
   */
  public record Call(String operation, int tid, CpuSet cpus) {}

  /** A simulated thread: its id and its current mask. */
  private static final class SimThread {
    private final int tid;
    private volatile CpuSet mask;

    SimThread(int tid, CpuSet mask) {
      this.tid = tid;
      this.mask = mask;
    }
  }

  private final CpuSet hostCpus;
  private final AtomicInteger nextTid = new AtomicInteger(1000);
  private final Map<Integer, SimThread> threads = new ConcurrentHashMap<>();
  private final List<Call> calls = new ArrayList<>();
  private final AtomicInteger failNextSetErrno = new AtomicInteger();
  private final InheritableThreadLocal<SimThread> current =
      new InheritableThreadLocal<>() {
        @Override
        protected SimThread initialValue() {
          return register(hostCpus);
        }

        @Override
        protected SimThread childValue(SimThread parent) {
          return register(parent.mask);
        }
      };

  /**
   * Creates a fake host with the given CPUs.
   *
   * @param hostCpus the CPUs threads may use; not empty
   */
  public RecordingAffinityBackend(CpuSet hostCpus) {
    this.hostCpus = checkCpus(hostCpus);
  }

  private SimThread register(CpuSet mask) {
    SimThread t = new SimThread(nextTid.getAndIncrement(), mask);
    threads.put(t.tid, t);
    return t;
  }

  /** Returns the simulated host's CPUs. */
  public CpuSet hostCpus() {
    return hostCpus;
  }

  /** Returns true: the fake supports everything. */
  @Override
  public boolean isSupported() {
    return true;
  }

  @Override
  public String reason() {
    return "recording fake: simulated per-thread masks on CPUs " + hostCpus;
  }

  /** Returns the calling thread's simulated id. */
  @Override
  public int currentThreadId() {
    return current.get().tid;
  }

  /** Returns the first CPU of the calling thread's simulated mask. */
  @Override
  public int currentCpu() {
    return current.get().mask.first();
  }

  @Override
  public CpuSet getAffinity(int tid) {
    checkTid(tid);
    SimThread t = resolve(tid);
    record("getAffinity", t == null ? tid : t.tid, CpuSet.empty());
    if (t == null) {
      throw new AffinityException("sched_getaffinity", tid, CpuSet.empty(), Errno.ESRCH);
    }
    return t.mask;
  }

  @Override
  public void setAffinity(int tid, CpuSet cpus) {
    checkTid(tid);
    checkCpus(cpus);
    SimThread t = resolve(tid);
    record("setAffinity", t == null ? tid : t.tid, cpus);
    int injected = failNextSetErrno.getAndSet(0);
    if (injected != 0) {
      throw new AffinityException("sched_setaffinity", tid, cpus, injected);
    }
    if (t == null) {
      throw new AffinityException("sched_setaffinity", tid, cpus, Errno.ESRCH);
    }
    CpuSet kept = cpus.intersect(hostCpus);
    if (kept.isEmpty()) {
      throw new AffinityException("sched_setaffinity", tid, cpus, Errno.EINVAL);
    }
    t.mask = kept;
  }

  private SimThread resolve(int tid) {
    return tid == 0 ? current.get() : threads.get(tid);
  }

  private void record(String operation, int tid, CpuSet cpus) {
    synchronized (calls) {
      calls.add(new Call(operation, tid, cpus));
    }
  }

  /**
   * Makes the next {@code setAffinity} call (from any thread) fail with {@code errno} after
   * recording it, leaving the mask unchanged.
   *
   * @param errno the errno to fail with, as {@code 1} ({@code EPERM}); must be positive
   */
  public void failNextSetAffinity(int errno) {
    if (errno <= 0) {
      throw new IllegalArgumentException("errno: " + errno + " (expected: > 0)");
    }
    failNextSetErrno.set(errno);
  }

  /** Returns the calls recorded so far, oldest first (a snapshot). */
  public List<Call> calls() {
    synchronized (calls) {
      return List.copyOf(calls);
    }
  }

  /** Forgets the recorded calls (not the masks). */
  public void clearCalls() {
    synchronized (calls) {
      calls.clear();
    }
  }

  /**
   * Returns a simulated thread's mask without recording a call.
   *
   * @param tid a simulated thread id (not 0)
   * @throws IllegalArgumentException if no simulated thread has that id
   */
  public CpuSet maskOf(int tid) {
    SimThread t = threads.get(tid);
    if (t == null) {
      throw new IllegalArgumentException("tid: " + tid + " (expected: a simulated thread id)");
    }
    return t.mask;
  }

  @Override
  public String toString() {
    return "RecordingAffinityBackend[" + hostCpus + ", " + threads.size() + " threads]";
  }

  /** The argument checks of the library's backends, in their words. */
  private static void checkTid(int tid) {
    if (tid < 0) {
      throw new IllegalArgumentException("tid: " + tid + " (expected: >= 0, 0 = calling thread)");
    }
  }

  private static CpuSet checkCpus(CpuSet cpus) {
    if (java.util.Objects.requireNonNull(cpus, "cpus").isEmpty()) {
      throw new IllegalArgumentException("cpus: empty (expected: at least one CPU)");
    }
    return cpus;
  }
}
