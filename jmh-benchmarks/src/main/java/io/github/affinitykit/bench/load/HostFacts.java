package io.github.affinitykit.bench.load;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.host.HostCpus;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The host facts that decide a verdict, from the doctor's host model ({@link HostCpus}) and the
 * run's CPU split: CPUs, SMT, NUMA, isolation, which CPUs served, drove and kept house, the kernel
 * and the JDK.
 *
 * <p>Thread safety: immutable.
 *
 * @param cpus online CPUs
 * @param cores physical cores
 * @param smt whether any core runs more than one hardware thread
 * @param numaNodes NUMA nodes
 * @param isolated CPUs isolated by any mechanism (isolcpus, cgroup partitions, nohz_full)
 * @param serverCpus the gateway's CPUs
 * @param clientCpus the load client's CPUs
 * @param housekeepingCpus the pinned gateways' boss, GC and JIT CPUs ("" = all but the server's)
 * @param kernel the kernel release
 * @param jdk the JDK's vendor and version
 * @param exclusive which kind of exclusivity the {@code exclusive} scenario measured ({@link
 *     Exclusivity}); empty when it did not run
 */
record HostFacts(
    CpuSet cpus,
    int cores,
    boolean smt,
    int numaNodes,
    CpuSet isolated,
    CpuSet serverCpus,
    CpuSet clientCpus,
    CpuSet housekeepingCpus,
    String kernel,
    String jdk,
    String exclusive) {

  /**
   * The facts of {@code host} with the CPU split of {@code o}; {@code exclusive} says what the
   * exclusive scenario measured.
   */
  static HostFacts of(HostCpus host, LoadTestOptions o, String exclusive) {
    CpuTopology t = host.topology();
    return new HostFacts(
        t.online(),
        t.cores().size(),
        t.smt(),
        Math.max(1, t.numaNodes().size()),
        host.isolatedCpus(),
        o.serverCpus(),
        o.clientCpus(),
        o.housekeepingCpus(),
        System.getProperty("os.name") + " " + System.getProperty("os.version"),
        System.getProperty("java.vm.vendor") + " " + Runtime.version(),
        exclusive);
  }

  /** The facts as label → value, in the order the report shows them. */
  Map<String, String> rows() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("CPUs", cpus.size() + " online (" + cpus + "), " + cores + " cores");
    m.put("SMT", smt ? "yes" : "no");
    m.put("NUMA nodes", String.valueOf(numaNodes));
    m.put("isolated CPUs", isolated.isEmpty() ? "none" : isolated.toString());
    m.put("server CPUs", serverCpus.toString());
    m.put("client CPUs", clientCpus.toString());
    m.put(
        "housekeeping CPUs",
        housekeepingCpus.isEmpty() ? "all but the server's" : housekeepingCpus.toString());
    m.put("kernel", kernel);
    m.put("JDK", jdk);
    if (!exclusive.isEmpty()) {
      m.put("exclusive", exclusive);
    }
    return m;
  }
}
