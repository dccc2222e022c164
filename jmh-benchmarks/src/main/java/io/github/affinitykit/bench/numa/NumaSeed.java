package io.github.affinitykit.bench.numa;

import static io.github.affinitykit.core.cli.OptionTable.key;
import static io.github.affinitykit.core.cli.OptionTable.option;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.cli.KitVersion;
import io.github.affinitykit.core.cli.OptionTable;
import io.github.affinitykit.core.cli.OptionTable.Key;
import io.github.affinitykit.core.cpu.CpuSet;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The fourth seed, reproducible: its author bound OpenMP threads next to the memory they worked on
 * and a run fell from about 80 s to about 1 s. Here threads pinned on every node sweep their share
 * of memory that was first touched by one thread on one node, then each share on its own thread's
 * node, then memory interleaved over the nodes: wall time per pass, and where the pages were.
 *
 * <p>Run: {@code java -cp jmh-benchmarks/target/benchmarks.jar
 * io.github.affinitykit.bench.numa.NumaSeed} ({@code --help} lists the options). On a host with one
 * NUMA node it says there is nothing to compare, and why.
 *
 * <p>Thread safety: a main program; one call at a time.
 */
@Command(
    name = "NumaSeed",
    mixinStandardHelpOptions = true,
    versionProvider = KitVersion.class,
    sortOptions = false,
    description =
        "Threads pinned on every NUMA node sweep their share of memory put three ways: first"
            + " touched by one thread on one node (the seed's slow run), each share on its own"
            + " thread's node, interleaved over the nodes. Prints the median wall time of a pass"
            + " and where move_pages found the pages.")
public final class NumaSeed implements Callable<Integer> {
  private static final Key<Integer> PER_NODE = key("--threads-per-node", int.class);
  private static final Key<Integer> MIB = key("--mib", int.class);
  private static final Key<Integer> PASSES = key("--passes", int.class);

  private final Supplier<AffinityKit> kits;
  private final PrintStream out;

  @Spec private CommandSpec spec;

  @Mixin
  private final CommandSpec options =
      OptionTable.of(
          option(PER_NODE, "N", 2, "pinned threads on each node (default ${DEFAULT-VALUE})"),
          option(MIB, "N", 256, "MiB each thread sweeps, 1 to 1024 (default ${DEFAULT-VALUE})"),
          option(PASSES, "N", 10, "passes timed per layout (default ${DEFAULT-VALUE})"));

  NumaSeed(Supplier<AffinityKit> kits, PrintStream out) {
    this.kits = kits;
    this.out = out;
  }

  /**
   * Runs the experiment of the command line {@code args}; exits 0 when it ran (or had nothing to
   * compare), 2 after a bad option.
   *
   * @param args the options ({@code --help})
   */
  public static void main(String[] args) {
    System.exit(execute(List.of(args), System.out, System.err));
  }

  /**
   * Runs the experiment of the command line {@code args} on this host's shared kit.
   *
   * @param args the options ({@code --help})
   * @param out where the table goes
   * @param err where a bad option's one line goes
   * @return 0 when it ran (or had nothing to compare), 2 after a bad option
   */
  public static int execute(List<String> args, PrintStream out, PrintStream err) {
    return CommandLines.execute(
        new CommandLine(new NumaSeed(AffinityKit::shared, out)), args, out, err);
  }

  @Override
  public Integer call() throws InterruptedException {
    int perNode = PER_NODE.value(options);
    int mib = MIB.value(options);
    int passes = PASSES.value(options);
    CommandLines.require(spec, perNode >= 1, PER_NODE.name(), perNode, "an integer >= 1");
    CommandLines.require(spec, mib >= 1 && mib <= 1024, MIB.name(), mib, "1 to 1024");
    CommandLines.require(spec, passes >= 1, PASSES.name(), passes, "an integer >= 1");
    AffinityKit kit = CommandLines.configured(spec, kits);
    SortedMap<Integer, CpuSet> nodes = poolByNode(kit);
    if (nodes.size() < 2) {
      out.println(oneNode(kit, nodes));
      return 0;
    }
    List<Integer> cpus = new ArrayList<>();
    Map<Integer, Integer> nodeOf = new TreeMap<>();
    for (int k = 0; k < perNode; k++) { // round robin: node 0, node 1, ... then again
      for (Map.Entry<Integer, CpuSet> n : nodes.entrySet()) {
        List<Integer> on = n.getValue().stream().boxed().toList();
        if (k < on.size()) {
          cpus.add(on.get(k));
          nodeOf.put(on.get(k), n.getKey());
        }
      }
    }
    out.printf(
        Locale.ROOT,
        "NUMA seed: %d threads on CPUs %s (nodes %s), %d MiB each, %d passes%n",
        cpus.size(),
        cpus,
        cpus.stream().map(nodeOf::get).toList(),
        mib,
        passes);
    NumaExperiment e = new NumaExperiment(kit, cpus, nodeOf, mib << 20, passes);
    List<ModeResult> results = new ArrayList<>();
    for (NumaMode m : NumaMode.values()) {
      results.add(e.run(m));
      System.gc(); // the mode's mappings are unmapped by their Cleaner once collected
    }
    out.print(NumaReport.table(results));
    return 0;
  }

  /** The pool's CPUs by node; nodes with none left out. */
  static SortedMap<Integer, CpuSet> poolByNode(AffinityKit kit) {
    SortedMap<Integer, CpuSet> out = new TreeMap<>();
    CpuSet pool = kit.pool().cpus();
    kit.host()
        .topology()
        .numaNodes()
        .forEach(
            (node, cpus) -> {
              if (cpus.intersects(pool)) {
                out.put(node, cpus.intersect(pool));
              }
            });
    return out;
  }

  static String oneNode(AffinityKit kit, SortedMap<Integer, CpuSet> nodes) {
    StringJoiner all = new StringJoiner(", ", "(", ")");
    kit.host().topology().numaNodes().forEach((n, c) -> all.add("node " + n + ": CPUs " + c));
    return "NUMA seed: nothing to compare. This host has "
        + kit.host().topology().numaNodes().size()
        + " NUMA node(s) "
        + all
        + " and the pool "
        + kit.pool().cpus()
        + " spans "
        + nodes.size()
        + ": every page lands on the same node whichever way it is placed, so first touch,"
        + " local and interleaved memory are one layout. Run it on a host with two or more"
        + " nodes (numactl --hardware, or the doctor's topology, lists them).";
  }
}
