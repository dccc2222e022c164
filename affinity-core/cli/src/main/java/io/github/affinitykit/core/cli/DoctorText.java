package io.github.affinitykit.core.cli;

import io.github.affinitykit.core.cpu.CoreType;
import io.github.affinitykit.core.cpu.CpuInfo;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.host.CpuPool;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.hostreport.HostReport;
import io.github.affinitykit.hostreport.HostWarning;
import io.github.affinitykit.hostreport.IrqAffinity;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The doctor's one screen for a person: this JVM's backend, topology, the CPU sets that decide what
 * can be pinned, the pool and why, the network devices ({@link NetworkText}), and warnings.
 *
 * <p>Thread safety: stateless.
 */
final class DoctorText {
  private static final int MAX_LISTED = 8;

  private DoctorText() {}

  static String render(HostReport report, String root, AffinityBackend backend) {
    HostCpus host = report.host();
    StringBuilder out = new StringBuilder();
    CpuTopology t = host.topology();
    out.append("Affinity Kit doctor: ").append(root).append(" (topology from ");
    out.append(t.source()).append(")\n\n");
    out.append("Backend    ").append(backendLine(backend)).append("\n\n");
    topology(out, t);
    sets(out, report);
    pool(out, host);
    NetworkText.render(out, report);
    List<HostWarning> warnings = report.warnings();
    out.append("\nWarnings").append(warnings.isEmpty() ? ": none\n" : "\n");
    for (HostWarning w : warnings) {
      out.append("  ! ").append(w.message()).append('\n');
    }
    return out.toString();
  }

  /** This JVM's backend: which one, whether it can pin, and what it uses or why it cannot. */
  static String backendLine(AffinityBackend backend) {
    return backend.getClass().getSimpleName()
        + (backend.isSupported()
            ? ": can pin (" + backend.reason() + ")"
            : ": CANNOT PIN, threads stay unpinned (lease status UNSUPPORTED): "
                + backend.reason());
  }

  private static void topology(StringBuilder out, CpuTopology t) {
    int threads = t.cores().stream().mapToInt(CpuSet::size).max().orElse(1);
    out.append("Topology   ")
        .append(t.known().size())
        .append(" CPUs, ")
        .append(plural(t.packages().size(), "package"))
        .append(", ")
        .append(plural(t.cores().size(), "core"))
        .append(t.smt() ? ", SMT up to " + threads + " threads/core" : ", no SMT")
        .append(", ")
        .append(plural(t.numaNodes().size(), "NUMA node"))
        .append(", ")
        .append(plural(t.l3Groups().size(), "L3 group"))
        .append('\n');
    for (int p = 0; p < Math.min(t.packages().size(), MAX_LISTED); p++) {
      CpuSet cpus = t.packages().get(p);
      out.append("  package ").append(t.cpu(cpus.first()).packageId()).append(": ").append(cpus);
      out.append('\n');
    }
    StringJoiner nodes = new StringJoiner("  ");
    for (Map.Entry<Integer, CpuSet> e : t.numaNodes().entrySet()) {
      nodes.add("node " + e.getKey() + ": " + e.getValue());
    }
    if (t.numaNodes().size() > 0) {
      out.append("  ").append(nodes).append('\n');
    }
    if (t.numaNodes().size() > 1) {
      out.append("  distances ").append(distances(t)).append('\n');
    }
    StringJoiner l3 = new StringJoiner("  ");
    t.l3Groups().stream().limit(MAX_LISTED).forEach(g -> l3.add(g.toString()));
    if (!t.l3Groups().isEmpty()) {
      out.append("  L3 groups ").append(l3).append(t.l3Groups().size() > MAX_LISTED ? " ..." : "");
      out.append('\n');
    }
    coreTypes(out, t);
    if (t.smt()) {
      StringJoiner cores = new StringJoiner(" ");
      t.cores().stream().limit(16).forEach(c -> cores.add("[" + c + "]"));
      out.append("  cores ").append(cores).append(t.cores().size() > 16 ? " ..." : "").append('\n');
    }
  }

  private static String distances(CpuTopology t) {
    StringJoiner rows = new StringJoiner(" | ");
    for (int from : t.numaNodes().keySet()) {
      StringJoiner row = new StringJoiner(" ");
      for (int to : t.numaNodes().keySet()) {
        row.add(String.valueOf(t.distance(from, to)));
      }
      rows.add(from + ": " + row);
    }
    return rows.toString();
  }

  private static void coreTypes(StringBuilder out, CpuTopology t) {
    Map<CoreType, CpuSet> byType = new EnumMap<>(CoreType.class);
    for (CpuInfo c : t.cpus()) {
      byType.merge(c.coreType(), CpuSet.of(c.cpu()), CpuSet::union);
    }
    if (byType.size() > 1 || !byType.containsKey(CoreType.UNIFORM)) {
      StringJoiner j = new StringJoiner("  ");
      byType.forEach((k, v) -> j.add(k.name().toLowerCase(java.util.Locale.ROOT) + " " + v));
      out.append("  hybrid ").append(j).append('\n');
    }
  }

  private static void sets(StringBuilder out, HostReport report) {
    HostCpus h = report.host();
    CpuTopology t = h.topology();
    out.append("\nCPU sets\n");
    line(out, "possible", t.possible(), "");
    line(out, "online", t.online(), t.offline().isEmpty() ? "" : "offline " + t.offline());
    line(
        out,
        "allowed",
        h.allowed(),
        !h.allowedKnown()
            ? "mask not readable: assumed = usable"
            : h.allowedIsIsolationDefault()
                ? "the isolcpus boot default: isolated CPUs stay reachable"
                : "calling thread's sched mask");
    String cg =
        h.cgroup().present()
            ? "cgroup v" + h.cgroup().version() + " " + h.cgroup().path()
            : "no cpuset cgroup found";
    if (!h.cgroup().partition().isEmpty()) {
      cg += ", partition " + h.cgroup().partition();
    }
    line(out, "cgroup", h.cgroup().present() ? h.cgroup().effective() : t.online(), cg);
    line(out, "reachable", h.reachable(), "what threads of this process may be pinned to");
    line(out, "isolated", h.isolated(), "isolcpus domain (/sys/devices/system/cpu/isolated)");
    line(out, "nohz_full", h.nohzFull(), "");
    if (!h.cgroup().isolatedPartitions().isEmpty()) {
      line(out, "v2 isolated", h.cgroup().isolatedPartitions(), "cgroup v2 isolated partitions");
    }
    out.append(String.format("  %-12s %s%n", "cmdline", cmdline(report)));
    out.append(String.format("  %-12s %s%n", "irqs", irqs(report)));
  }

  private static String cmdline(HostReport h) {
    StringJoiner j = new StringJoiner(" ");
    if (!h.cmdline().isolcpusFlags().isEmpty()) {
      j.add(
          "isolcpus="
              + String.join(",", h.cmdline().isolcpusFlags())
              + ","
              + h.cmdline().isolcpus());
    }
    addIf(j, "nohz_full", h.cmdline().nohzFull());
    addIf(j, "rcu_nocbs", h.cmdline().rcuNocbs());
    addIf(j, "irqaffinity", h.cmdline().irqAffinity());
    return j.length() == 0 ? "(no isolation parameters)" : j.toString();
  }

  private static void addIf(StringJoiner j, String name, CpuSet cpus) {
    if (!cpus.isEmpty()) {
      j.add(name + "=" + cpus);
    }
  }

  private static String irqs(HostReport h) {
    if (h.irqs().isEmpty()) {
      return "(no /proc/irq visible)";
    }
    CpuSet targets = CpuSet.empty();
    for (IrqAffinity irq : h.irqs()) {
      targets = targets.union(irq.effective());
    }
    return h.irqs().size()
        + " IRQs delivered to "
        + targets
        + ", default affinity "
        + h.irqDefault();
  }

  private static void pool(StringBuilder out, HostCpus h) {
    out.append('\n');
    try {
      CpuPool p = h.pool();
      line(
          out,
          "Pool",
          p.cpus(),
          p.source().name().toLowerCase(java.util.Locale.ROOT) + ": " + p.reason());
      line(out, "Housekeeping", p.housekeeping(), "the OS, GC, JIT and unpinned threads");
    } catch (IllegalArgumentException e) {
      out.append("  Pool         ERROR ").append(e.getMessage()).append('\n');
    }
  }

  private static void line(StringBuilder out, String label, CpuSet cpus, String note) {
    String set = cpus.isEmpty() ? "-" : cpus.toString();
    out.append(String.format("  %-12s %-16s %s", label, set, note).stripTrailing()).append('\n');
  }

  private static String plural(int n, String what) {
    return n + " " + what + (n == 1 ? "" : "s");
  }
}
