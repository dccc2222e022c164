package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import java.time.Duration;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The auditor of a kit: the one {@link ServiceLoader} finds (affinity-audit), looked up at the
 * first audit, else one that watches nothing and says why: every CPU UNKNOWN, its detail naming the
 * missing artifact.
 *
 * <p>Thread safety: immutable.
 */
final class NoAudit implements CpuAuditor {
  /** The detail of every CPU audited without the artifact. */
  static final String MISSING =
      "the audit needs io.github.affinitykit:affinity-audit on the class path";

  private NoAudit() {}

  /** The auditor ServiceLoader provides, else one that audits nothing. */
  static CpuAuditor find() {
    return ServiceLoader.load(CpuAuditor.class, CpuAuditor.class.getClassLoader())
        .findFirst()
        .orElseGet(NoAudit::new);
  }

  @Override
  public ExclusivityAudit audit(HostCpus host, CpuSet cpus, Duration window, Set<Integer> owners) {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(owners, "owners");
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("window: " + window + " (expected: > 0)");
    }
    return new Unknown(window, Objects.requireNonNull(cpus, "cpus"));
  }

  /** An audit that watched nothing: the artifact is missing. */
  private record Unknown(Duration window, CpuSet audited) implements ExclusivityAudit {
    @Override
    public CpuSet exclusive() {
      return CpuSet.empty();
    }

    @Override
    public CpuSet intruded() {
      return CpuSet.empty();
    }

    @Override
    public String detail(int cpu) {
      if (!audited.contains(cpu)) {
        throw new IllegalArgumentException("cpu: " + cpu + " (expected: one of " + audited + ")");
      }
      return MISSING;
    }

    @Override
    public String summary() {
      StringBuilder sb = new StringBuilder();
      audited.forEach(
          c -> sb.append("cpu ").append(c).append(": UNKNOWN; ").append(MISSING).append('\n'));
      return sb.toString();
    }
  }
}
