/**
 * Affinity Kit's exclusivity audit ({@code io.github.affinitykit.audit}): who else ran or may run
 * on pinned CPUs during a window, read from every task of the host; the rest of the JVM confined
 * away; thread and host CPU counters and pressure. A user who pins threads needs none of it, so it
 * is an artifact of its own; affinity-core finds it through {@link
 * io.github.affinitykit.core.CpuAuditor} ({@code AffinityKit.audit}, the watchdog's audit), and the
 * applications (the doctor, the gateway, the load test, the Micrometer binder) use it directly.
 */
module io.github.affinitykit.audit {
  requires transitive io.github.affinitykit.core;
  // the /proc readers (interrupt counts, IRQ routes, task stat lines) it shares with the report
  requires io.github.affinitykit.hostreport;
  // only for the tests patched into this module (ThreadStatsIT measures its CPU time through
  // ThreadMXBean); core, which brought it through jdk.management, no longer requires it
  requires static java.management;

  exports io.github.affinitykit.audit;

  provides io.github.affinitykit.core.CpuAuditor with
      io.github.affinitykit.audit.internal.LiveAuditor;
}
