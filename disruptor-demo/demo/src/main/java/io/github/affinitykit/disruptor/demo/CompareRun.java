package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.disruptor.Pinning;
import java.io.PrintStream;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code compare-queues} run: header, warm-up, one row per contender × shape × pinning as it
 * goes, then the ratios and where each thread ran.
 *
 * <p>Thread safety: a program step; runs on the calling thread, which is also the producer.
 */
final class CompareRun {
  private CompareRun() {}

  /** Runs every row of {@code o}, printing as it goes; returns whether no event was lost. */
  static boolean run(AffinityKit kit, CompareOptions o, PrintStream out)
      throws InterruptedException {
    out.println("# Disruptor against queues, " + ZonedDateTime.now().withNano(0));
    DemoMain.printHost(kit, out);
    out.printf(
        "per row: burst %d ms flat out; %d events at %d/s for latency; ring/capacity %d; %d rows%n",
        o.burstMs(), o.pacedEvents(), o.rate(), o.ringSize(), o.rows());
    out.print(CompareTable.legend(o.contenders()));
    out.println("cpu pressure before: " + DemoMain.pressure());
    warmUp(kit, o);
    out.println();
    out.println(CompareTable.header());
    List<Comparison> results = new ArrayList<>();
    for (int consumers : o.shapes()) {
      for (Pinning pinning : o.pinnings()) {
        for (Contender c : o.contenders()) {
          Comparison r = new CompareRunner(kit, o).run(c, consumers, pinning);
          results.add(r);
          out.println(CompareTable.row(r));
        }
      }
    }
    out.println();
    out.println("cpu pressure after: " + DemoMain.pressure());
    out.println();
    out.println("Disruptor pinned ÷ best queue (throughput, rows that lost nothing):");
    out.print(CompareTable.ratios(results));
    out.println();
    out.println("Where each thread ran (assignments of the first row of each layout):");
    out.print(CompareTable.placements(results));
    return results.stream().allMatch(Comparison::ok);
  }

  private static void warmUp(AffinityKit kit, CompareOptions o) throws InterruptedException {
    if (o.warmupMs() == 0) {
      return;
    }
    long perRun = Math.max(5, o.warmupMs() / (2L * o.contenders().size()));
    CompareOptions w =
        new CompareOptions(perRun, 200, o.rate(), 0, o.ringSize(), List.of(), List.of(), List.of());
    for (int consumers : new int[] {1, 3}) {
      for (Contender c : o.contenders()) {
        new CompareRunner(kit, w).run(c, consumers, Pinning.UNPINNED);
      }
    }
  }
}
