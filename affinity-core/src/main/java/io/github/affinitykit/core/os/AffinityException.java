package io.github.affinitykit.core.os;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.natives.Errno;
import java.util.Objects;

/**
 * A system call on a CPU mask failed: carries the call, the thread id, the CPU set and the errno,
 * and says all of them in its message, as in {@code sched_setaffinity(tid 1234, 5): EINVAL (22)
 * Invalid argument}.
 *
 * <p>Thread safety: immutable.
 */
public final class AffinityException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The failed system call's name, as {@code "sched_setaffinity"}. */
  private final String call;

  /** The thread id passed to the call; {@code 0}: the calling thread. */
  private final int tid;

  private final transient CpuSet cpus;

  /** The {@code errno} the call failed with. */
  private final int errno;

  /**
   * Creates the exception.
   *
   * @param call the system call, as {@code "sched_setaffinity"}
   * @param tid the thread id passed to it ({@code 0}: the calling thread)
   * @param cpus the CPU set passed to it, empty for calls that take none
   * @param errno the {@code errno} it failed with
   */
  public AffinityException(String call, int tid, CpuSet cpus, int errno) {
    super(message(call, tid, cpus, errno));
    this.call = call;
    this.tid = tid;
    this.cpus = cpus;
    this.errno = errno;
  }

  private static String message(String call, int tid, CpuSet cpus, int errno) {
    Objects.requireNonNull(call, "call");
    Objects.requireNonNull(cpus, "cpus");
    String args = cpus.isEmpty() ? "" : ", " + cpus;
    return call + "(tid " + tid + args + "): " + Errno.describe(errno);
  }

  /** {@return the call's name, as {@code "sched_getaffinity"}} */
  public String call() {
    return call;
  }

  /** {@return the thread id the call was made for ({@code 0}: the calling thread)} */
  public int tid() {
    return tid;
  }

  /** {@return the set as passed; empty for calls that take none, and once deserialized} */
  public CpuSet cpus() {
    return cpus == null ? CpuSet.empty() : cpus;
  }

  /** {@return the errno as the kernel reported it, e.g. 22 for {@code EINVAL}} */
  public int errno() {
    return errno;
  }

  /** {@return the symbolic name of {@link #errno()} ({@code EINVAL}), or {@code errno N}} */
  public String errnoName() {
    return Errno.name(errno);
  }
}
