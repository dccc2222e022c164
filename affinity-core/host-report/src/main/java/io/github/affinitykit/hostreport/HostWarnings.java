package io.github.affinitykit.hostreport;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * Derives the {@link HostWarning}s of a {@link HostReport}.
 *
 * <p>Thread safety: stateless.
 */
final class HostWarnings {
  private HostWarnings() {}

  static List<HostWarning> of(HostReport report) {
    HostCpus host = report.host();
    List<HostWarning> out = new ArrayList<>();
    CpuSet iso = host.isolatedCpus();
    siblings(host, out);
    irqs(report, iso, out);
    if (iso.isEmpty()) {
      out.add(
          new HostWarning(
              HostWarning.Kind.NO_ISOLATION,
              "no isolated CPUs: pinned threads still share their CPUs with other processes,"
                  + " kernel threads and IRQs (boot with isolcpus=domain,managed_irq,<cpus>"
                  + " nohz_full=<cpus>, or confine the rest of the JVM with JvmThreads)"));
    } else if (host.exclusive().isEmpty()) {
      out.add(
          new HostWarning(
              HostWarning.Kind.ISOLATED_UNREACHABLE,
              "isolated CPUs "
                  + iso
                  + " are outside what this process may use: "
                  + host.reachable()));
    }
    restrictions(host, out);
    CpuSet pool = CpuSet.empty();
    try {
      pool = host.pool().cpus();
      if (host.pool().isEmpty()) {
        out.add(
            new HostWarning(HostWarning.Kind.POOL_EMPTY, "pool empty: " + host.pool().reason()));
      }
    } catch (IllegalArgumentException e) {
      out.add(
          new HostWarning(
              HostWarning.Kind.POOL_EMPTY, "pool override rejected: " + e.getMessage()));
    }
    for (String p : report.cmdline().problems()) {
      out.add(new HostWarning(HostWarning.Kind.CMDLINE, "kernel command line: " + p));
    }
    NicWarnings.add(report, pool, out);
    for (String r : report.refused()) {
      out.add(new HostWarning(HostWarning.Kind.HOST_FILE_REFUSED, "not read: " + r));
    }
    return out;
  }

  private static void siblings(HostCpus host, List<HostWarning> out) {
    CpuSet shared = host.isolatedWithSharedCore();
    if (shared.isEmpty()) {
      return;
    }
    CpuSet mates = CpuSet.empty();
    for (int cpu = shared.first(); cpu >= 0; cpu = shared.next(cpu + 1)) {
      mates = mates.union(host.topology().cpu(cpu).core());
    }
    mates = mates.minus(host.isolatedCpus());
    out.add(
        new HostWarning(
            HostWarning.Kind.ISOLATED_SIBLING_NOT_ISOLATED,
            "isolated CPUs "
                + shared
                + " share physical cores with non-isolated CPUs "
                + mates
                + ": those hyper-threads still run general work on the same core"
                + " (isolate whole cores: add "
                + mates
                + " to isolcpus/nohz_full, or disable SMT)"));
  }

  private static void irqs(HostReport host, CpuSet iso, List<HostWarning> out) {
    if (iso.isEmpty()) {
      return;
    }
    StringJoiner hits = new StringJoiner(", ");
    int count = 0;
    for (IrqAffinity irq : host.irqs()) {
      if (irq.effective().intersects(iso)) {
        count++;
        if (count <= 8) {
          hits.add(irq.irq() + "->" + irq.effective().intersect(iso));
        }
      }
    }
    if (host.irqDefault().intersects(iso)) {
      hits.add("default_smp_affinity " + host.irqDefault().intersect(iso));
    }
    if (count > 0 || host.irqDefault().intersects(iso)) {
      out.add(
          new HostWarning(
              HostWarning.Kind.IRQ_ON_ISOLATED,
              count
                  + " IRQs delivered to isolated CPUs ("
                  + hits
                  + (count > 8 ? ", ..." : "")
                  + "): boot with irqaffinity=<housekeeping> or isolcpus=managed_irq"));
    }
  }

  private static void restrictions(HostCpus host, List<HostWarning> out) {
    CpuSet online = host.topology().online();
    if (host.cgroup().present() && !host.cgroup().effective().containsAll(online)) {
      out.add(
          new HostWarning(
              HostWarning.Kind.CGROUP_RESTRICTED,
              "cgroup v"
                  + host.cgroup().version()
                  + " "
                  + host.cgroup().path()
                  + " limits this process to CPUs "
                  + host.usable()
                  + " of online "
                  + online));
    }
    if (host.allowedKnown()
        && !host.allowedIsIsolationDefault()
        && !host.allowed().containsAll(host.usable())) {
      out.add(
          new HostWarning(
              HostWarning.Kind.MASK_RESTRICTED,
              "the allowed mask (taskset, numactl or a pinned parent) limits this process to CPUs "
                  + host.allowed().intersect(host.usable())
                  + " of usable "
                  + host.usable()));
    }
  }
}
