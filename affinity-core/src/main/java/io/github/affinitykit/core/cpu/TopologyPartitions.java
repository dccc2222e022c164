package io.github.affinitykit.core.cpu;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Turns the sets each CPU reports (core, package, L2, L3) into partitions of the known CPUs:
 * offline CPUs dropped, groups of CPUs that disagree merged.
 *
 * <p>Thread safety: stateless.
 */
final class TopologyPartitions {
  private TopologyPartitions() {}

  /** Returns the CPUs, sorted and without duplicate ids, with consistent group sets. */
  static List<CpuInfo> normalize(List<CpuInfo> raw) {
    Map<Integer, CpuInfo> byCpu = new HashMap<>();
    BitSet ids = new BitSet();
    for (CpuInfo c : raw) {
      if (byCpu.putIfAbsent(c.cpu(), c) == null) {
        ids.set(c.cpu());
      }
    }
    CpuSet known = CpuSet.of(ids);
    List<CpuInfo> cpus = new ArrayList<>(byCpu.values());
    cpus.sort(Comparator.comparingInt(CpuInfo::cpu));
    Map<Integer, CpuSet> core = partition(cpus, known, c -> c.core().union(CpuSet.of(c.cpu())));
    Map<Integer, CpuSet> pkg = partition(cpus, known, packageOrById(cpus));
    Map<Integer, CpuSet> l2 = partition(cpus, known, CpuInfo::l2);
    Map<Integer, CpuSet> l3 = partition(cpus, known, CpuInfo::l3);
    List<CpuInfo> out = new ArrayList<>(cpus.size());
    for (CpuInfo c : cpus) {
      int id = c.cpu();
      out.add(c.withGroups(core.get(id), get(pkg, id), get(l2, id), get(l3, id)));
    }
    return out;
  }

  /** The packages; the CPUs of unknown package, if any, form one more group. */
  static List<CpuSet> packages(List<CpuInfo> cpus, CpuSet known) {
    List<CpuSet> groups = new ArrayList<>(distinct(cpus, CpuInfo::packageCpus));
    CpuSet unknown = known;
    for (CpuSet g : groups) {
      unknown = unknown.minus(g);
    }
    if (!unknown.isEmpty()) {
      groups.add(unknown);
      groups.sort(Comparator.comparingInt(CpuSet::first));
    }
    return List.copyOf(groups);
  }

  /** Each node's CPUs, for the CPUs with a known node; unmodifiable. */
  static SortedMap<Integer, CpuSet> numaNodes(List<CpuInfo> cpus) {
    SortedMap<Integer, BitSet> nodes = new TreeMap<>();
    for (CpuInfo c : cpus) {
      if (c.node() >= 0) {
        nodes.computeIfAbsent(c.node(), n -> new BitSet()).set(c.cpu());
      }
    }
    SortedMap<Integer, CpuSet> out = new TreeMap<>();
    nodes.forEach((node, ids) -> out.put(node, CpuSet.of(ids)));
    return Collections.unmodifiableSortedMap(out);
  }

  /** The distinct non-empty sets, ordered by their first CPU. */
  static List<CpuSet> distinct(List<CpuInfo> cpus, Function<CpuInfo, CpuSet> set) {
    Set<CpuSet> groups = new LinkedHashSet<>();
    for (CpuInfo c : cpus) {
      if (!set.apply(c).isEmpty()) {
        groups.add(set.apply(c));
      }
    }
    List<CpuSet> list = new ArrayList<>(groups);
    list.sort(Comparator.comparingInt(CpuSet::first));
    return List.copyOf(list);
  }

  /**
   * Each CPU's package set; where the kernel gives none ({@code package_cpus_list} absent), the
   * CPUs with the same {@code physical_package_id}.
   */
  private static Function<CpuInfo, CpuSet> packageOrById(List<CpuInfo> cpus) {
    Map<Integer, BitSet> byId = new HashMap<>();
    for (CpuInfo c : cpus) {
      if (c.packageId() >= 0) {
        byId.computeIfAbsent(c.packageId(), k -> new BitSet()).set(c.cpu());
      }
    }
    return c -> {
      if (!c.packageCpus().isEmpty() || c.packageId() < 0) {
        return c.packageCpus();
      }
      return CpuSet.of(byId.get(c.packageId()));
    };
  }

  /**
   * The connected components of the relation "CPU a names CPU b in its set", restricted to known
   * CPUs: the map holds every CPU that is in some non-empty set.
   */
  private static Map<Integer, CpuSet> partition(
      List<CpuInfo> cpus, CpuSet known, Function<CpuInfo, CpuSet> set) {
    int[] parent = new int[known.last() + 1];
    for (int i = 0; i < parent.length; i++) {
      parent[i] = i;
    }
    BitSet involved = new BitSet();
    for (CpuInfo c : cpus) {
      CpuSet members = set.apply(c).intersect(known);
      if (!members.isEmpty()) {
        involved.set(c.cpu());
        members.forEach(
            other -> {
              involved.set(other);
              parent[root(parent, other)] = root(parent, c.cpu());
            });
      }
    }
    Map<Integer, BitSet> components = new HashMap<>();
    involved.stream()
        .forEach(cpu -> components.computeIfAbsent(root(parent, cpu), r -> new BitSet()).set(cpu));
    Map<Integer, CpuSet> byCpu = new HashMap<>();
    for (BitSet component : components.values()) {
      CpuSet group = CpuSet.of(component);
      group.forEach(cpu -> byCpu.put(cpu, group));
    }
    return byCpu;
  }

  private static int root(int[] parent, int cpu) {
    int r = cpu;
    while (parent[r] != r) {
      parent[r] = parent[parent[r]];
      r = parent[r];
    }
    return r;
  }

  private static CpuSet get(Map<Integer, CpuSet> groups, int cpu) {
    return groups.getOrDefault(cpu, CpuSet.empty());
  }
}
