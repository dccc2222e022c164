package io.github.affinitykit.core.os;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.Objects;

/**
 * The backend of a platform that cannot pin ({@link AffinityBackend#unsupported}): a mask call
 * throws {@link UnsupportedOperationException} naming the reason, as silent pinning would be a lie.
 *
 * <p>Thread safety: immutable; safe to share.
 */
final class NoopAffinityBackend implements AffinityBackend {
  private final String reason;

  /** A backend unsupported for {@code reason}, not blank. */
  NoopAffinityBackend(String reason) {
    Objects.requireNonNull(reason, "reason");
    if (reason.isBlank()) {
      throw new IllegalArgumentException("reason: blank (expected: why pinning is unsupported)");
    }
    this.reason = reason;
  }

  /** Returns false. */
  @Override
  public boolean isSupported() {
    return false;
  }

  /** Returns why pinning is unsupported. */
  @Override
  public String reason() {
    return reason;
  }

  /** Returns {@code -1}: unknown. */
  @Override
  public int currentThreadId() {
    return -1;
  }

  /** Returns {@code -1}: unknown. */
  @Override
  public int currentCpu() {
    return -1;
  }

  /** Checks the argument, then throws naming the reason. */
  @Override
  public CpuSet getAffinity(int tid) {
    LinuxAffinityBackend.checkTid(tid);
    throw unsupported("getAffinity(tid " + tid + ")");
  }

  /** Checks the arguments, then throws naming the reason. */
  @Override
  public void setAffinity(int tid, CpuSet cpus) {
    LinuxAffinityBackend.checkTid(tid);
    LinuxAffinityBackend.checkCpus(cpus);
    throw unsupported("setAffinity(tid " + tid + ", " + cpus + ")");
  }

  private UnsupportedOperationException unsupported(String call) {
    return new UnsupportedOperationException(call + ": CPU affinity is unsupported: " + reason);
  }

  @Override
  public String toString() {
    return "NoopAffinityBackend[" + reason + "]";
  }
}
