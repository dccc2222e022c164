package io.github.affinitykit.core.host;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.KernelLimits;
import io.github.affinitykit.core.internal.SysFs;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntConsumer;

/**
 * The NUMA nodes of {@code /sys/devices/system/node}: CPUs ({@code cpulist}, or {@code cpumap}),
 * {@code cpuN} links, {@code distance} rows. A CPU belongs to the one node whose list holds it;
 * where none or several do (a buggy firmware lists every CPU in all nodes), to the node it is
 * linked with ({@code cpu_to_node}), else the lowest listing it.
 *
 * <p>Thread safety: immutable after {@link #read}.
 */
final class NumaNodes {
  private static final String NODE_DIR = "/sys/devices/system/node";

  private final SortedMap<Integer, CpuSet> listed;
  private final Map<Integer, Set<Integer>> linked;
  private final Map<Integer, Map<Integer, Integer>> distances;

  private NumaNodes(
      SortedMap<Integer, CpuSet> listed,
      Map<Integer, Set<Integer>> linked,
      Map<Integer, Map<Integer, Integer>> distances) {
    this.listed = listed;
    this.linked = linked;
    this.distances = distances;
  }

  static NumaNodes read(SysFs fs) {
    SortedMap<Integer, CpuSet> listed = new TreeMap<>();
    Map<Integer, Set<Integer>> linked = new HashMap<>();
    for (String name : fs.list(NODE_DIR)) {
      int node = fs.index(NODE_DIR, name, "node", KernelLimits.NODES);
      if (node >= 0) {
        String dir = NODE_DIR + "/" + name;
        fs.firstCpus(dir, "cpulist", "cpumap").ifPresent(cpus -> listed.put(node, cpus));
        links(
            fs,
            dir,
            "cpu",
            KernelLimits.CPUS,
            cpu -> linked.computeIfAbsent(cpu, c -> new TreeSet<>()).add(node));
      }
    }
    for (String name : fs.list(TopologyReader.CPU_DIR)) {
      int cpu = fs.index(TopologyReader.CPU_DIR, name, "cpu", KernelLimits.CPUS);
      if (cpu >= 0) {
        String dir = TopologyReader.CPU_DIR + "/" + name;
        links(
            fs,
            dir,
            "node",
            KernelLimits.NODES,
            node -> linked.computeIfAbsent(cpu, c -> new TreeSet<>()).add(node));
      }
    }
    return new NumaNodes(listed, linked, readDistances(fs));
  }

  /** Calls {@code action} with N for each {@code prefixN} entry of the directory, N below limit. */
  private static void links(SysFs fs, String dir, String prefix, int limit, IntConsumer action) {
    for (String entry : fs.list(dir)) {
      int n = fs.index(dir, entry, prefix, limit);
      if (n >= 0) {
        action.accept(n);
      }
    }
  }

  /**
   * Each {@code nodeN/distance} row lists the distances to the online nodes in ascending order
   * ({@code node/online}; the {@code nodeN} directories where that file is missing).
   */
  private static Map<Integer, Map<Integer, Integer>> readDistances(SysFs fs) {
    Set<Integer> dirs = new TreeSet<>();
    for (String name : fs.list(NODE_DIR)) {
      int node = fs.index(NODE_DIR, name, "node", KernelLimits.NODES);
      if (node >= 0) {
        dirs.add(node);
      }
    }
    // the online list is text: kept as a bitmap, read only dirs that exist; past the kernel's
    // MAX_NUMNODES it is garbled, and the directories decide
    CpuSet online =
        fs.cpuListOrEmpty(NODE_DIR + "/online")
            .filter(nodes -> nodes.last() < KernelLimits.NODES)
            .orElse(CpuSet.empty());
    int[] order = online.isEmpty() ? dirs.stream().mapToInt(n -> n).toArray() : null;
    int columns = order != null ? order.length : online.size();
    Map<Integer, Map<Integer, Integer>> distances = new HashMap<>();
    for (int from : dirs) {
      if (order == null && !online.contains(from)) {
        continue;
      }
      String[] row =
          fs.read(NODE_DIR + "/node" + from + "/distance").orElse("").trim().split("\\s+");
      if (row.length != columns) {
        continue; // absent or inconsistent with the node list: unknown
      }
      if (order == null) {
        order = online.toArray(); // a row as long as the list: the list is that short
      }
      Map<Integer, Integer> to = new HashMap<>();
      for (int i = 0; i < row.length; i++) {
        to.put(order[i], SysFs.index(row[i], ""));
      }
      distances.put(from, to);
    }
    return distances;
  }

  /** Returns the node of {@code cpu}, or -1 if no node lists or links it. */
  int nodeOf(int cpu) {
    List<Integer> listing = new ArrayList<>();
    listed.forEach(
        (node, cpus) -> {
          if (cpus.contains(cpu)) {
            listing.add(node);
          }
        });
    Set<Integer> links = linked.getOrDefault(cpu, Set.of());
    if (listing.size() == 1) {
      return listing.get(0);
    }
    if (links.size() == 1) {
      return links.iterator().next();
    }
    if (!listing.isEmpty()) {
      return listing.get(0);
    }
    return links.isEmpty() ? -1 : Collections.min(links);
  }

  /** Returns the distances by node and node; a missing entry is unknown. */
  Map<Integer, Map<Integer, Integer>> distances() {
    return distances;
  }
}
