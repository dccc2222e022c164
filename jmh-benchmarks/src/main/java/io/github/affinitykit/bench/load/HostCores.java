package io.github.affinitykit.bench.load;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.host.CpuPool;
import io.github.affinitykit.core.host.HostCpus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The host's physical cores as {@link CpuRoles} sees them: each core's reachable CPUs, its NUMA
 * node, and how it stands to the doctor's pool and housekeeping CPUs.
 *
 * <p>Thread safety: immutable.
 */
final class HostCores {
  /**
   * One physical core.
   *
   * @param cpus its reachable CPUs (SMT siblings together)
   * @param node its NUMA node, -1 if unknown
   * @param inPool whether one of its CPUs is in the pool
   * @param wholeInPool whether all of them are
   * @param housekeeping whether all of them are the doctor's housekeeping CPUs
   */
  record Core(CpuSet cpus, int node, boolean inPool, boolean wholeInPool, boolean housekeeping) {}

  private final CpuTopology topology;
  private final CpuPool pool;
  private final List<Core> cores;

  HostCores(HostCpus host, CpuPool pool) {
    this.topology = host.topology();
    this.pool = pool;
    CpuSet reachable = host.reachable();
    Set<CpuSet> distinct = new LinkedHashSet<>();
    reachable.forEach(
        cpu ->
            distinct.add(
                topology.known().contains(cpu)
                    ? topology.cpu(cpu).core().intersect(reachable)
                    : CpuSet.of(cpu)));
    List<Core> list = new ArrayList<>();
    for (CpuSet cpus : distinct) {
      list.add(
          new Core(
              cpus,
              nodeOf(cpus),
              cpus.intersects(pool.cpus()),
              pool.cpus().containsAll(cpus),
              pool.housekeeping().containsAll(cpus)));
    }
    list.sort(Comparator.comparingInt(c -> c.cpus().first()));
    this.cores = List.copyOf(list);
  }

  /** The cores that share no CPU with {@code taken}, ordered by first CPU; a new list. */
  List<Core> outside(CpuSet taken) {
    List<Core> out = new ArrayList<>();
    for (Core c : cores) {
      if (!c.cpus().intersects(taken)) {
        out.add(c);
      }
    }
    return out;
  }

  /** The NUMA node of the first CPU of {@code cpus}, -1 if unknown. */
  int nodeOf(CpuSet cpus) {
    return cpus.isEmpty() || !topology.known().contains(cpus.first())
        ? -1
        : topology.cpu(cpus.first()).node();
  }

  /** How many cores {@code cpus} touches. */
  int coreCount(CpuSet cpus) {
    int n = 0;
    for (Core c : cores) {
      n += c.cpus().intersects(cpus) ? 1 : 0;
    }
    return n;
  }

  /** The pool cores of {@code free} (on {@code node}, unless -1), whole ones first. */
  List<Core> poolCores(List<Core> free, int node) {
    List<Core> out = new ArrayList<>();
    for (Core c : free) {
      if (c.inPool() && (node < 0 || c.node() == node)) {
        out.add(c);
      }
    }
    out.sort(
        Comparator.comparing((Core c) -> c.wholeInPool() ? 0 : 1)
            .thenComparingInt(c -> c.cpus().first()));
    return out;
  }

  /** The node of the first pool core of {@code free}, in pool order. */
  Optional<Integer> firstPoolNode(List<Core> free) {
    return poolCores(free, -1).stream().findFirst().map(Core::node);
  }

  /** A core of the doctor's housekeeping CPUs in {@code free}, on {@code node} if one is. */
  Optional<Core> housekeepingCore(List<Core> free, int node) {
    Optional<Core> first = Optional.empty();
    for (Core c : free) {
      if (c.housekeeping() && c.node() == node) {
        return Optional.of(c);
      }
      if (c.housekeeping() && first.isEmpty()) {
        first = Optional.of(c);
      }
    }
    return first;
  }

  /**
   * The pool CPUs of the first {@code count} pool cores of {@code free} on {@code node} (any node
   * when the free cores are all on one, or {@code node} is unknown).
   */
  CpuSet server(List<Core> free, int node, int count) {
    List<Core> candidates = poolCores(free, nodes(free).size() > 1 ? node : -1);
    CpuSet out = CpuSet.empty();
    for (int i = 0; i < Math.min(count, candidates.size()); i++) {
      out = out.union(candidates.get(i).cpus().intersect(pool.cpus()));
    }
    return out;
  }

  /**
   * The CPUs of {@code count} cores of {@code free}: off {@code node} when any is (nearest node
   * first, and only those), cores outside the pool before pool cores.
   */
  CpuSet client(List<Core> free, int node, int count) {
    List<Core> away = new ArrayList<>();
    for (Core c : free) {
      if (node >= 0 && c.node() >= 0 && c.node() != node) {
        away.add(c);
      }
    }
    List<Core> candidates = new ArrayList<>(away.isEmpty() ? free : away);
    candidates.sort(
        Comparator.comparingInt((Core c) -> distance(node, c.node()))
            .thenComparingInt(Core::node)
            .thenComparing(c -> c.inPool() ? 1 : 0)
            .thenComparingInt(c -> c.cpus().first()));
    CpuSet out = CpuSet.empty();
    for (int i = 0; i < Math.min(Math.max(1, count), candidates.size()); i++) {
      out = out.union(candidates.get(i).cpus());
    }
    return out;
  }

  /**
   * {@code "server 1-31 (31 cores, node 0)"}, or with a note: {@code "server 4-7 (4 cores, node 0,
   * --server-cpus)"}.
   */
  String describe(String role, CpuSet cpus, String note) {
    Set<Integer> nodes = new TreeSet<>();
    cpus.forEach(cpu -> nodes.add(nodeOf(CpuSet.of(cpu))));
    nodes.remove(-1);
    int n = coreCount(cpus);
    return role
        + " "
        + cpus
        + " ("
        + n
        + (n == 1 ? " core" : " cores")
        + (nodes.isEmpty() ? "" : (nodes.size() == 1 ? ", node " : ", nodes ") + join(nodes))
        + (note.isEmpty() ? "" : ", " + note)
        + ")";
  }

  private int distance(int from, int to) {
    return from < 0 || to < 0 ? 0 : topology.distance(from, to);
  }

  private static Set<Integer> nodes(List<Core> free) {
    Set<Integer> out = new TreeSet<>();
    free.forEach(c -> out.add(c.node()));
    out.remove(-1);
    return out;
  }

  private static String join(Set<Integer> nodes) {
    StringBuilder b = new StringBuilder();
    for (int n : nodes) {
      b.append(b.length() == 0 ? "" : ",").append(n);
    }
    return b.toString();
  }
}
