package io.github.affinitykit.core.internal;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.Objects;

/**
 * The argument checks every {@code AffinityBackend} shares, so that each rejects bad input with the
 * same words.
 *
 * <p>Thread safety: stateless.
 */
public final class Backends {
  private Backends() {}

  /** Rejects a negative thread id. */
  public static int checkTid(int tid) {
    if (tid < 0) {
      throw new IllegalArgumentException("tid: " + tid + " (expected: >= 0, 0 = calling thread)");
    }
    return tid;
  }

  /** Rejects a null or empty CPU set. */
  public static CpuSet checkCpus(CpuSet cpus) {
    Objects.requireNonNull(cpus, "cpus");
    if (cpus.isEmpty()) {
      throw new IllegalArgumentException("cpus: empty (expected: at least one CPU)");
    }
    return cpus;
  }
}
