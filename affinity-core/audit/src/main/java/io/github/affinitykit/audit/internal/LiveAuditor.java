package io.github.affinitykit.audit.internal;

import io.github.affinitykit.audit.CpuAudit;
import io.github.affinitykit.core.CpuAuditor;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * What {@link java.util.ServiceLoader} makes for affinity-core: the audit of this machine's {@code
 * /proc} ({@link CpuAudit#run}), for {@code AffinityKit.audit} and the watchdog.
 *
 * <p>Thread safety: immutable.
 */
public final class LiveAuditor implements CpuAuditor {
  /** The provider constructor ServiceLoader calls; it reads nothing. */
  public LiveAuditor() {}

  @Override
  public CpuAudit audit(HostCpus host, CpuSet cpus, Duration window, Set<Integer> owners) {
    return CpuAudit.run(Path.of("/"), host, cpus, window, owners);
  }
}
