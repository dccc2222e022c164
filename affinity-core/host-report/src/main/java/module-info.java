/**
 * Affinity Kit's host report ({@code io.github.affinitykit.hostreport}): the whole host beyond what
 * pinning needs, read from the root of core's {@link io.github.affinitykit.core.host.HostCpus}: the
 * kernel command line, IRQ affinities, network interfaces, the JVM's and the kernel's NUMA
 * settings, the warnings the {@code doctor} prints ({@code HostReport}), and NIC placement ({@code
 * NicPlacement}, which netty-integration's {@code nic(...)} uses). Core never names it.
 */
module io.github.affinitykit.hostreport {
  requires transitive io.github.affinitykit.core;
  // HotSpotDiagnosticMXBean: the report reads -XX:+UseNUMA as the VM reports it
  requires jdk.management;

  exports io.github.affinitykit.hostreport;
}
