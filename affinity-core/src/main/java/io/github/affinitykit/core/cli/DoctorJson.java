package io.github.affinitykit.core.cli;

import io.github.affinitykit.core.AffinityBackend;
import io.github.affinitykit.core.CpuInfo;
import io.github.affinitykit.core.CpuPool;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.CpuTopology;
import io.github.affinitykit.core.HostCpus;
import io.github.affinitykit.core.HostWarning;
import io.github.affinitykit.core.IrqAffinity;
import io.github.affinitykit.core.Planner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The doctor's report as a JSON document for machines: every set as a kernel cpu list string.
 *
 * <p>Thread safety: stateless.
 */
final class DoctorJson {
  private DoctorJson() {}

  static String render(HostCpus host, String root, AffinityBackend backend) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("root", root);
    doc.put(
        "backend",
        map(
            "name", backend.getClass().getSimpleName(),
            "supported", backend.isSupported(),
            "reason", backend.reason()));
    doc.put("topology", topology(host.topology()));
    doc.put("sets", sets(host));
    doc.put("cgroup", cgroup(host));
    doc.put("cmdline", cmdline(host));
    doc.put("irqs", irqs(host));
    doc.put("pool", pool(host));
    List<Object> warnings = new ArrayList<>();
    for (HostWarning w : host.warnings()) {
      warnings.add(map("kind", w.kind().name(), "message", w.message()));
    }
    doc.put("warnings", warnings);
    return Json.write(doc);
  }

  private static Map<String, Object> topology(CpuTopology t) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("source", t.source());
    m.put("cpus", t.known().size());
    m.put("packages", strings(t.packages()));
    m.put("cores", strings(t.cores()));
    m.put("smt", t.smt());
    Map<String, Object> nodes = new LinkedHashMap<>();
    Map<String, Object> distances = new LinkedHashMap<>();
    for (Map.Entry<Integer, CpuSet> e : t.numaNodes().entrySet()) {
      nodes.put(String.valueOf(e.getKey()), e.getValue().toString());
      List<Object> row = new ArrayList<>();
      for (int to : t.numaNodes().keySet()) {
        row.add(t.distance(e.getKey(), to));
      }
      distances.put(String.valueOf(e.getKey()), row);
    }
    m.put("numaNodes", nodes);
    m.put("numaDistances", distances);
    m.put("l3Groups", strings(t.l3Groups()));
    m.put("l2Groups", strings(t.l2Groups()));
    List<Object> cpus = new ArrayList<>();
    for (CpuInfo c : t.cpus()) {
      Map<String, Object> cpu = new LinkedHashMap<>();
      cpu.put("cpu", c.cpu());
      cpu.put("package", c.packageId());
      cpu.put("die", c.dieId());
      cpu.put("cluster", c.clusterId());
      cpu.put("core", c.core().toString());
      cpu.put("node", c.node());
      cpu.put("l2", c.l2().toString());
      cpu.put("l3", c.l3().toString());
      cpu.put("coreType", c.coreType().name());
      cpus.add(cpu);
    }
    m.put("perCpu", cpus);
    return m;
  }

  private static Map<String, Object> sets(HostCpus h) {
    Map<String, Object> m = new LinkedHashMap<>();
    CpuTopology t = h.topology();
    m.put("possible", t.possible().toString());
    m.put("present", t.present().toString());
    m.put("online", t.online().toString());
    m.put("offline", t.offline().toString());
    m.put("allowed", h.allowed().toString());
    m.put("allowedKnown", h.allowedKnown());
    m.put("allowedIsIsolationDefault", h.allowedIsIsolationDefault());
    m.put("usable", h.usable().toString());
    m.put("reachable", h.reachable().toString());
    m.put("isolated", h.isolated().toString());
    m.put("nohzFull", h.nohzFull().toString());
    m.put("isolatedAll", h.isolatedCpus().toString());
    m.put("exclusive", h.exclusive().toString());
    m.put("isolatedWithSharedCore", h.isolatedWithSharedCore().toString());
    return m;
  }

  private static Map<String, Object> cgroup(HostCpus h) {
    return map(
        "version", h.cgroup().version(),
        "path", h.cgroup().path(),
        "effective", h.cgroup().effective().toString(),
        "partition", h.cgroup().partition(),
        "isolatedPartitions", h.cgroup().isolatedPartitions().toString(),
        "source", h.cgroup().source());
  }

  private static Map<String, Object> cmdline(HostCpus h) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("isolcpus", h.cmdline().isolcpus().toString());
    m.put("isolcpusFlags", new ArrayList<Object>(h.cmdline().isolcpusFlags()));
    m.put("nohzFull", h.cmdline().nohzFull().toString());
    m.put("rcuNocbs", h.cmdline().rcuNocbs().toString());
    m.put("irqAffinity", h.cmdline().irqAffinity().toString());
    m.put("problems", new ArrayList<Object>(h.cmdline().problems()));
    return m;
  }

  private static Map<String, Object> irqs(HostCpus h) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("defaultAffinity", h.irqDefault().toString());
    List<Object> list = new ArrayList<>();
    for (IrqAffinity irq : h.irqs()) {
      list.add(
          map(
              "irq", irq.irq(),
              "effective", irq.effective().toString(),
              "affinity", irq.affinity().toString()));
    }
    m.put("irqs", list);
    return m;
  }

  private static Map<String, Object> pool(HostCpus h) {
    try {
      CpuPool p = h.pool();
      return map(
          "cpus", p.cpus().toString(),
          "housekeeping", p.housekeeping().toString(),
          "order", new ArrayList<Object>(new Planner(h.topology()).order(p.cpus())),
          "source", p.source().name(),
          "reason", p.reason());
    } catch (IllegalArgumentException e) {
      return map("error", e.getMessage());
    }
  }

  private static List<Object> strings(List<CpuSet> sets) {
    List<Object> out = new ArrayList<>();
    sets.forEach(s -> out.add(s.toString()));
    return out;
  }

  private static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }
}
