package io.github.affinitykit.core.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.affinitykit.core.cpu.CpuInfo;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.host.CpuPool;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.hostreport.HostReport;
import io.github.affinitykit.hostreport.HostWarning;
import io.github.affinitykit.hostreport.IrqAffinity;
import io.github.affinitykit.hostreport.NetDevice;
import io.github.affinitykit.hostreport.NicIrq;
import io.github.affinitykit.hostreport.QueueMask;
import io.github.affinitykit.isolation.IsolationJournal;
import io.github.affinitykit.jitter.CpuJitter;
import io.github.affinitykit.jitter.Gap;
import io.github.affinitykit.jitter.JitterReport;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The doctor's report as a JSON document for machines: every set as a kernel cpu list string.
 * Written with Jackson, an optional dependency of affinity-cli that only this class uses (it is
 * shaded into affinity-cli.jar and never reaches the applications built on this module's
 * command-line plumbing).
 *
 * <p>Thread safety: stateless; the mapper is thread-safe once configured.
 */
final class DoctorJson {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private DoctorJson() {}

  static String render(HostReport report, String root, AffinityBackend backend) {
    return render(report, root, backend, List.of());
  }

  /** As above, with the isolations recorded on the machine (see {@code IsolationJson}). */
  static String render(
      HostReport report, String root, AffinityBackend backend, List<IsolationJournal> isolations) {
    return render(report, root, backend, isolations, Optional.empty());
  }

  /** As above, with {@code doctor --jitter}'s sampling of the pool where there was one. */
  static String render(
      HostReport report,
      String root,
      AffinityBackend backend,
      List<IsolationJournal> isolations,
      Optional<JitterReport> jitter) {
    HostCpus host = report.host();
    ObjectNode doc = MAPPER.createObjectNode();
    doc.put("root", root);
    doc.putObject("backend")
        .put("name", backend.getClass().getSimpleName())
        .put("supported", backend.isSupported())
        .put("reason", backend.reason());
    topology(doc.putObject("topology"), host.topology());
    sets(doc.putObject("sets"), host);
    cgroup(doc.putObject("cgroup"), host);
    cmdline(doc.putObject("cmdline"), report);
    irqs(doc.putObject("irqs"), report);
    pool(doc.putObject("pool"), host);
    network(doc.putObject("network"), report);
    ArrayNode iso = doc.putArray("isolations");
    isolations.forEach(i -> iso.add(IsolationJson.tree(i)));
    jitter.ifPresent(j -> jitter(doc.putObject("jitter"), j));
    ArrayNode warnings = doc.putArray("warnings");
    for (HostWarning w : report.warnings()) {
      warnings.addObject().put("kind", w.kind().name()).put("message", w.message());
    }
    try {
      return MAPPER.writeValueAsString(doc) + "\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e); // a tree of strings, numbers and booleans always writes
    }
  }

  private static void jitter(ObjectNode m, JitterReport r) {
    m.put("windowNs", r.window().toNanos())
        .put("floorNs", r.floorNs())
        .put("thresholdNs", r.thresholdNs())
        .put("cost", DoctorJitter.COST);
    ArrayNode cpus = m.putArray("cpus");
    for (CpuJitter c : r.cpus()) {
      ArmRow row = ArmRow.of(c);
      ObjectNode n =
          cpus.addObject()
              .put("cpu", c.cpu())
              .put("status", c.status().name())
              .put("audit", ArmRow.verdict(c))
              .put("samples", c.samples())
              .put("spanNs", c.spanNs())
              .put("gaps", row.gaps())
              .put("maxGapNs", row.maxGap().ns())
              .put("p9999Ns", row.p9999().ns())
              .put("p9999Bound", row.p9999().bound().name())
              .put("lostNs", c.lostNs())
              .put("lostShare", c.lostShare());
      ArrayNode worst = n.putArray("worst");
      for (Gap g : c.largest()) {
        worst
            .addObject()
            .put("start", g.start().toString())
            .put("durationNs", g.durationNs())
            .put("cause", g.attribution().cause())
            .put("bracketNs", g.attribution().bracketNs());
      }
    }
    ArrayNode notes = m.putArray("notes");
    r.notes().forEach(notes::add);
  }

  private static void topology(ObjectNode m, CpuTopology t) {
    m.put("source", t.source());
    m.put("cpus", t.known().size());
    strings(m.putArray("packages"), t.packages());
    strings(m.putArray("cores"), t.cores());
    m.put("smt", t.smt());
    ObjectNode nodes = m.putObject("numaNodes");
    ObjectNode distances = m.putObject("numaDistances");
    for (Map.Entry<Integer, CpuSet> e : t.numaNodes().entrySet()) {
      nodes.put(String.valueOf(e.getKey()), e.getValue().toString());
      ArrayNode row = distances.putArray(String.valueOf(e.getKey()));
      for (int to : t.numaNodes().keySet()) {
        row.add(t.distance(e.getKey(), to));
      }
    }
    strings(m.putArray("l3Groups"), t.l3Groups());
    strings(m.putArray("l2Groups"), t.l2Groups());
    ArrayNode cpus = m.putArray("perCpu");
    for (CpuInfo c : t.cpus()) {
      cpus.addObject()
          .put("cpu", c.cpu())
          .put("package", c.packageId())
          .put("die", c.dieId())
          .put("cluster", c.clusterId())
          .put("core", c.core().toString())
          .put("node", c.node())
          .put("l2", c.l2().toString())
          .put("l3", c.l3().toString())
          .put("coreType", c.coreType().name());
    }
  }

  private static void sets(ObjectNode m, HostCpus h) {
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
  }

  private static void cgroup(ObjectNode m, HostCpus h) {
    m.put("version", h.cgroup().version())
        .put("path", h.cgroup().path())
        .put("effective", h.cgroup().effective().toString())
        .put("partition", h.cgroup().partition())
        .put("isolatedPartitions", h.cgroup().isolatedPartitions().toString())
        .put("source", h.cgroup().source());
  }

  private static void cmdline(ObjectNode m, HostReport h) {
    m.put("isolcpus", h.cmdline().isolcpus().toString());
    texts(m.putArray("isolcpusFlags"), h.cmdline().isolcpusFlags());
    m.put("nohzFull", h.cmdline().nohzFull().toString());
    m.put("rcuNocbs", h.cmdline().rcuNocbs().toString());
    m.put("irqAffinity", h.cmdline().irqAffinity().toString());
    texts(m.putArray("problems"), h.cmdline().problems());
  }

  private static void irqs(ObjectNode m, HostReport h) {
    m.put("defaultAffinity", h.irqDefault().toString());
    ArrayNode list = m.putArray("irqs");
    for (IrqAffinity irq : h.irqs()) {
      list.addObject()
          .put("irq", irq.irq())
          .put("effective", irq.effective().toString())
          .put("affinity", irq.affinity().toString());
    }
  }

  private static void pool(ObjectNode m, HostCpus h) {
    try {
      CpuPool p = h.pool();
      m.put("cpus", p.cpus().toString()).put("housekeeping", p.housekeeping().toString());
      ArrayNode order = m.putArray("order");
      p.order(h.topology()).forEach(order::add);
      m.put("source", p.source().name()).put("reason", p.reason());
    } catch (IllegalArgumentException e) {
      m.removeAll().put("error", e.getMessage());
    }
  }

  /**
   * {@code network}: {@code jvmUseNuma} ({@code "true"}, {@code "false"}, {@code "unknown"}: not
   * read on a one-node host or not reported), {@code numaBalancing} (the kernel's, {@code "true"},
   * {@code "false"}, {@code "unknown"}: no such file) and {@code devices}, one object per
   * interface: {@code name}, {@code physical}, {@code device} (PCI address or bus device, {@code
   * ""} if virtual), {@code node} (-1 unknown), {@code localCpus}, {@code rxQueues}, {@code
   * txQueues}, {@code rps} and {@code xps} (the masks set: {@code queue}, {@code cpus}), {@code
   * irqs} ({@code irq}, {@code name}, {@code queue} -1 unknown, {@code effective}).
   */
  private static void network(ObjectNode m, HostReport h) {
    m.put("jvmUseNuma", h.jvmUsesNuma().map(String::valueOf).orElse("unknown"));
    m.put("numaBalancing", h.numaBalancing().map(String::valueOf).orElse("unknown"));
    ArrayNode devices = m.putArray("devices");
    for (NetDevice d : h.netDevices()) {
      ObjectNode o =
          devices
              .addObject()
              .put("name", d.name())
              .put("physical", d.physical())
              .put("device", d.device())
              .put("node", d.node())
              .put("localCpus", d.localCpus().toString())
              .put("rxQueues", d.rxQueues())
              .put("txQueues", d.txQueues());
      masks(o.putArray("rps"), d.rps());
      masks(o.putArray("xps"), d.xps());
      ArrayNode irqs = o.putArray("irqs");
      for (NicIrq irq : d.irqs()) {
        irqs.addObject()
            .put("irq", irq.irq())
            .put("name", irq.name())
            .put("queue", irq.queue())
            .put("effective", irq.effective().toString());
      }
    }
  }

  private static void masks(ArrayNode out, List<QueueMask> masks) {
    masks.forEach(q -> out.addObject().put("queue", q.queue()).put("cpus", q.cpus().toString()));
  }

  private static void strings(ArrayNode out, List<CpuSet> sets) {
    sets.forEach(s -> out.add(s.toString()));
  }

  private static void texts(ArrayNode out, Collection<String> texts) {
    texts.forEach(out::add);
  }
}
