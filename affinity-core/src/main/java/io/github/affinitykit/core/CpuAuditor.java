package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import java.time.Duration;
import java.util.Set;

/**
 * The exclusivity audit as core needs it: did another task run, or may it run, on these CPUs during
 * a window, and which. {@link AffinityKit#audit} and a watchdog that audits (affinity-watchdog's
 * {@code WatchdogBuilder.audit}) call it; the wait rule takes its answer ({@link
 * WaitAdvice#decide(HostCpus, Assignment, java.util.Collection, CpuSet, CpuSet)}). Core implements
 * none: the artifact {@code io.github.affinitykit:affinity-audit} does (its {@code CpuAudit}), and
 * a kit finds it with {@link java.util.ServiceLoader} at its first audit. Without that artifact
 * every audited CPU is UNKNOWN and its {@link ExclusivityAudit#detail(int)} says which artifact is
 * missing; nothing throws for it.
 *
 * <p>Thread safety: implementations are safe for concurrent use by any number of threads.
 */
public interface CpuAuditor {
  /**
   * Watches {@code cpus} of {@code host} for {@code window}; {@code owners} are the threads meant
   * to be there, everything else seen there is an intruder. Blocks for about the window.
   *
   * @param host the host the CPUs belong to: its topology and IRQs
   * @param cpus the CPUs to audit; not null
   * @param window how long to watch; positive
   * @param owners kernel thread ids allowed on every audited CPU; empty means this JVM's threads
   *     pinned to each CPU alone
   * @return one answer for each CPU of {@code cpus}
   * @throws IllegalArgumentException if the window is not positive
   */
  ExclusivityAudit audit(HostCpus host, CpuSet cpus, Duration window, Set<Integer> owners);
}
