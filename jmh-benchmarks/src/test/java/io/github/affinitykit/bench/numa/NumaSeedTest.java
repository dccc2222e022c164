package io.github.affinitykit.bench.numa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.CliRun;
import io.github.affinitykit.core.testkit.Fixtures;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import io.github.affinitykit.numa.NodeMemory;
import io.github.affinitykit.numa.PageNodes;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The seed experiment on this host (one node: nothing to compare, but the layouts are made, worked
 * on and found by {@code move_pages}) and its words on the two-node E5 model.
 */
@Timeout(120)
class NumaSeedTest {
  @TempDir Path locks;

  private AffinityKit live() {
    return AffinityKit.create(
        HostCpus.probe(), AffinityBackend.detect(), CpuReservations.inDirectory(locks));
  }

  private static CliRun run(Supplier<AffinityKit> kits, String... args) {
    return CliRun.of(
        (out, err) ->
            CommandLines.execute(
                new CommandLine(new NumaSeed(kits, out)), List.of(args), out, err));
  }

  @Test
  void shouldSayThereIsNothingToCompareOnOneNodeAndWhy() {
    assumeTrue(live().host().topology().numaNodes().size() == 1, "this host has several nodes");
    CliRun r = run(this::live, "--passes", "1");
    assertThat(r.status()).isZero();
    assertThat(r.out()).startsWith("NUMA seed: nothing to compare. This host has 1 NUMA node(s)");
    assertThat(r.out()).contains("every page lands on the same node");
  }

  @Test
  void shouldSayThePoolSpansOneNodeOnATwoNodeHostWhoseIsolatedCpusAreAllOnNodeOne() {
    HostCpus e5 = HostCpus.probe(Fixtures.root(Fixtures.E5));
    AffinityKit kit =
        AffinityKit.create(
            e5, new RecordingAffinityBackend(e5.reachable()), CpuReservations.inDirectory(locks));
    CliRun r = run(() -> kit);
    assertThat(r.status()).isZero();
    assertThat(r.out())
        .contains("This host has 2 NUMA node(s)")
        .contains("the pool 19-23 spans 1:");
  }

  @Test
  void shouldRefuseBadCountsNamingTheOptionAndTheRule() {
    run(this::live, "--mib", "0").assertUsageError("--mib: 0 (expected: 1 to 1024)");
    run(this::live, "--threads-per-node", "0")
        .assertUsageError("--threads-per-node: 0 (expected: an integer >= 1)");
  }

  @Test
  void shouldMakeEachLayoutAndFindEveryPageOnTheOneNodeHere() throws Exception {
    AffinityKit kit = live();
    assumeTrue(kit.backend().isSupported(), kit.backend().reason());
    assumeTrue(NodeMemory.system().isSupported(), NodeMemory.system().reason());
    CpuSet here = kit.host().reachable();
    assumeTrue(here.size() >= 2, "needs 2 CPUs");
    int node = kit.host().topology().cpus().get(0).node();
    List<Integer> cpus = List.of(here.first(), here.last());
    Map<Integer, Integer> nodeOf = new TreeMap<>(Map.of(here.first(), node, here.last(), node));
    NumaExperiment e = new NumaExperiment(kit, cpus, nodeOf, 1 << 20, 2);
    for (NumaMode m : NumaMode.values()) {
      ModeResult r = e.run(m);
      assertThat(r.pages().pagesByNode()).as(m.label()).containsOnlyKeys(node);
      assertThat(r.pages().untouched() + r.pages().unknown()).as(m.label()).isZero();
      assertThat(r.pages().pagesOn(node)).as(m.label()).isPositive();
      assertThat(r.ownNodePages()).isEqualTo(r.pages().pages());
      assertThat(r.medianPassNanos()).isPositive();
    }
  }

  @Test
  void shouldPrintOneRowPerLayoutAndTheSeedsRatio() {
    PageNodes half = new PageNodes(new TreeMap<>(Map.of(0, 8, 1, 8)), 0, 0, 0);
    PageNodes zero = new PageNodes(new TreeMap<>(Map.of(0, 16)), 0, 0, 0);
    String t =
        NumaReport.table(
            List.of(
                new ModeResult(NumaMode.FIRST_TOUCH, 300_000_000L, zero, 8),
                new ModeResult(NumaMode.LOCAL, 100_000_000L, half, 16),
                new ModeResult(NumaMode.INTERLEAVE, 200_000_000L, half, 8)));
    assertThat(t.lines().toList())
        .containsExactly(
            "layout          pass (median)   own-node pages  pages",
            "first-touch          300.0 ms              50%  node 0: 16 pages",
            "local                100.0 ms             100%  node 0: 8 pages, node 1: 8 pages",
            "interleave           200.0 ms              50%  node 0: 8 pages, node 1: 8 pages",
            "first-touch / local: 3.00x the time per pass");
  }
}
