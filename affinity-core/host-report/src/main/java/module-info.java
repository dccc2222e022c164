/**
 * Affinity Kit's host report ({@code io.github.affinitykit.hostreport}): the whole host beyond what
 * pinning needs, read from the root of core's {@link io.github.affinitykit.core.host.HostCpus}: the
 * kernel command line, IRQ affinities, network interfaces, the JVM's and the kernel's NUMA
 * settings, the warnings the {@code doctor} prints ({@code HostReport}), and NIC placement ({@code
 * NicPlacement}, which netty-integration's {@code nic(...)} uses). Core never names it. Its {@code
 * proc} package reads {@code /proc/interrupts}, {@code /proc/irq} and task {@code stat} and {@code
 * status} files for the audit, isolation and the watchdog as for this report.
 */
// "module": affinity-audit, affinity-isolation and affinity-watchdog, named by the qualified
// export,
// are built after this module
@SuppressWarnings("module")
module io.github.affinitykit.hostreport {
  requires transitive io.github.affinitykit.core;
  // HotSpotDiagnosticMXBean: the report reads -XX:+UseNUMA as the VM reports it
  requires jdk.management;

  exports io.github.affinitykit.hostreport;
  // the /proc readers: the audit counts interrupts and reads task stat and status files, isolation
  // reads them too, the watchdog a pinned thread's context switches
  exports io.github.affinitykit.hostreport.proc to
      io.github.affinitykit.audit,
      io.github.affinitykit.isolation,
      io.github.affinitykit.watchdog;
}
