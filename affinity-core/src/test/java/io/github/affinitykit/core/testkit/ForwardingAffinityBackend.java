package io.github.affinitykit.core.testkit;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import java.util.Objects;

/**
 * An {@link AffinityBackend} that hands every call to another, for tests that change or watch one
 * call and leave the rest to the real backend: extend it and override that call.
 *
 * <p>Thread safety: as the backend it forwards to.
 */
public class ForwardingAffinityBackend implements AffinityBackend {
  private final AffinityBackend real;

  /**
   * Forwards to {@code real}.
   *
   * @param real the backend every call goes to; not null
   */
  public ForwardingAffinityBackend(AffinityBackend real) {
    this.real = Objects.requireNonNull(real, "real");
  }

  @Override
  public boolean isSupported() {
    return real.isSupported();
  }

  @Override
  public String reason() {
    return real.reason();
  }

  @Override
  public int currentThreadId() {
    return real.currentThreadId();
  }

  @Override
  public int currentCpu() {
    return real.currentCpu();
  }

  @Override
  public CpuSet getAffinity(int tid) {
    return real.getAffinity(tid);
  }

  @Override
  public void setAffinity(int tid, CpuSet cpus) {
    real.setAffinity(tid, cpus);
  }
}
