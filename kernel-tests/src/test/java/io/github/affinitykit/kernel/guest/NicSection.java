package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.Seat;
import io.github.affinitykit.hostreport.IrqSharing;
import io.github.affinitykit.hostreport.NicPlacement;
import io.github.affinitykit.netty.LoopAssignment;
import io.github.affinitykit.netty.PinnedServerGroups;
import io.github.affinitykit.netty.Transport;
import io.github.affinitykit.numa.MemoryPolicy;
import io.github.affinitykit.numa.MemoryPolicyStatus;
import io.github.affinitykit.numa.NodeMemory;
import io.github.affinitykit.numa.PageNodes;
import io.netty.util.concurrent.EventExecutor;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The NIC, memory and loop placement facts of shape N: what the kernel says about {@code eth0}
 * (read here straight from sysfs and procfs, the reference the host model is held to); where the
 * pages of a buffer filled under a memory policy land ({@code move_pages}); where Netty worker
 * loops asked to sit next to {@code eth0} run.
 *
 * <p>Thread safety: sections; run on the guest program's main thread.
 */
final class NicSection {
  private NicSection() {}

  /** Reports the kernel's own view of {@code eth0}: device path, PCI node, MSI vectors, IRQs. */
  static void run(ObjectNode data, PrintStream log) throws Exception {
    ObjectNode raw = data.putObject("kernel");
    Path net = Path.of("/sys/class/net/eth0");
    raw.put("link", Files.readSymbolicLink(net).toString());
    Path pci = net.resolve("device").toRealPath().getParent(); // virtio0's parent: the PCI device
    raw.put("pci", pci.getFileName().toString())
        .put("numaNode", read(pci.resolve("numa_node")))
        .put("localCpus", read(pci.resolve("local_cpulist")));
    ArrayNode irqs = raw.putArray("irqs");
    try (Stream<Path> s = Files.list(pci.resolve("msi_irqs"))) {
      for (Path p : // by number: "100" after "99"
          s.sorted(
                  java.util.Comparator.comparingInt(
                      x -> Integer.parseInt(x.getFileName().toString())))
              .toList()) {
        String irq = p.getFileName().toString();
        Path dir = Path.of("/proc/irq", irq);
        ObjectNode i = irqs.addObject().put("irq", Integer.parseInt(irq));
        i.put("effective", read(dir.resolve("effective_affinity_list")));
        try (Stream<Path> actions = Files.list(dir)) {
          actions
              .filter(Files::isDirectory)
              .findFirst()
              .ifPresent(a -> i.put("name", a.getFileName().toString()));
        }
      }
    }
    AffinityKit kit = AffinityKit.shared();
    ObjectNode memory = data.putObject("memory");
    memory.set("bound1", fill(kit, 3, MemoryPolicy.bind(1)));
    memory.set("rebound0", fill(kit, 3, MemoryPolicy.bind(0)));
    memory.set("mapped1", mapped(kit, 1, MemoryPolicy.bind(1)));
    ObjectNode loops = data.putObject("loops");
    for (IrqSharing sharing : IrqSharing.values()) {
      loops.set(sharing.name(), loops(kit, sharing));
    }
    log.println("nic: " + data);
  }

  /** The seed's experiment, small: one thread a node, 8 MiB each, two passes; its table. */
  static void numaSeed(ObjectNode data, PrintStream log) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    PrintStream p = new PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8);
    int exit =
        io.github.affinitykit.bench.numa.NumaSeed.execute(
            java.util.List.of("--threads-per-node", "1", "--mib", "8", "--passes", "2"), p, p);
    String table = out.toString(java.nio.charset.StandardCharsets.UTF_8);
    data.put("exit", exit).put("out", table);
    // what each node had free before and after, so that a fallback off the local node explains
    // itself
    data.set("memFree", memFree());
    log.println(table);
    log.println("MemFree by node after: " + data.path("memFree"));
  }

  private static ObjectNode memFree() {
    ObjectNode free = GuestMain.JSON.createObjectNode();
    for (int node = 0; node < 2; node++) {
      java.nio.file.Path meminfo =
          java.nio.file.Path.of("/sys/devices/system/node/node" + node + "/meminfo");
      try {
        java.nio.file.Files.readAllLines(meminfo).stream()
            .filter(l -> l.contains("MemFree:"))
            .findFirst()
            .ifPresent(l -> free.put(meminfo.getParent().getFileName().toString(), l.trim()));
      } catch (java.io.IOException e) {
        free.put("node" + node, e.toString());
      }
    }
    return free;
  }

  /**
   * A thread pinned on {@code cpu} by a group with memory policy {@code policy} fills a fresh 8 MiB
   * direct buffer (its first touch: the JDK zeroes it on the calling thread) and asks where the
   * pages are.
   */
  private static ObjectNode fill(AffinityKit kit, int cpu, MemoryPolicy policy) throws Exception {
    ObjectNode out = GuestMain.JSON.createObjectNode();
    try (CpuGroup group = kit.group("mem").cpus(cpu).memoryPolicy(policy).build()) {
      Seat seat = group.joinAll(1).get(0);
      run(
          seat.bound(
              () -> {
                ByteBuffer b = ByteBuffer.allocateDirect(8 << 20);
                for (int i = 0; i < b.capacity(); i += 4096) {
                  b.put(i, (byte) 1);
                }
                out.put("policy", MemoryPolicyStatus.of(seat).toString());
                out.put("state", MemoryPolicyStatus.of(seat).state().name());
                out.put("cpu", seat.cpu());
                pages(out, NodeMemory.system().pageNodes(b));
              }),
          out);
      out.put("after", MemoryPolicyStatus.of(seat).state().name());
    }
    return out;
  }

  /** {@link NodeMemory#allocate} bound to {@code policy}, touched from {@code cpu}. */
  private static ObjectNode mapped(AffinityKit kit, int cpu, MemoryPolicy policy) throws Exception {
    ObjectNode out = GuestMain.JSON.createObjectNode();
    try (CpuGroup group = kit.group("map").cpus(cpu).build()) {
      Seat seat = group.joinAll(1).get(0);
      run(
          seat.bound(
              () -> {
                ByteBuffer b = NodeMemory.system().allocate(8 << 20, policy);
                out.set("before", GuestMain.JSON.valueToTree(NodeMemory.system().pageNodes(b)));
                for (int i = 0; i < b.capacity(); i += 4096) {
                  b.put(i, (byte) 1);
                }
                out.put("cpu", seat.cpu());
                pages(out, NodeMemory.system().pageNodes(b));
              }),
          out);
    }
    return out;
  }

  private static void pages(ObjectNode out, PageNodes p) {
    ObjectNode byNode = out.putObject("pagesByNode");
    p.pagesByNode().forEach((node, n) -> byNode.put(Integer.toString(node), n));
    out.put("untouched", p.untouched()).put("unknown", p.unknown()).put("errno", p.errno());
  }

  /** Runs {@code task} on a thread of its own and waits (60 s at most); a failure goes to out. */
  private static void run(Runnable task, ObjectNode out) throws InterruptedException {
    Thread t =
        new Thread(
            () -> {
              try {
                task.run();
              } catch (RuntimeException | Error e) {
                out.put("error", e.toString());
              }
            },
            "nic-section");
    t.start();
    t.join(TimeUnit.SECONDS.toMillis(60));
    if (t.isAlive()) {
      out.put("error", "still running after 60 s");
    }
  }

  /**
   * Netty server groups asked for {@code eth0} with {@code sharing}: the placement, each worker
   * loop's CPU, and the mask its thread really has.
   */
  private static ObjectNode loops(AffinityKit kit, IrqSharing sharing) throws Exception {
    ObjectNode out = GuestMain.JSON.createObjectNode();
    try (PinnedServerGroups groups =
        PinnedServerGroups.builder(kit).transport(Transport.NIO).nic("eth0", sharing).build()) {
      NicPlacement p = groups.nic().orElseThrow();
      out.put("node", p.node())
          .put("cpus", p.cpus().toString())
          .put("applied", p.applied().name())
          .put("reason", p.reason());
      ArrayNode workers = out.putArray("workers");
      for (LoopAssignment l : groups.report().group("worker")) {
        workers.addObject().put("cpu", l.cpu()).put("status", l.status().name());
      }
      ArrayNode allowed = out.putArray("allowed");
      for (EventExecutor e : groups.workers()) {
        allowed.add(
            e.submit(() -> ThreadFacts.allowed(Path.of("/proc/thread-self/status")))
                .get(30, TimeUnit.SECONDS));
      }
    }
    return out;
  }

  private static String read(Path p) {
    try {
      return Files.readString(p).trim();
    } catch (IOException e) {
      return "unreadable: " + e;
    }
  }
}
