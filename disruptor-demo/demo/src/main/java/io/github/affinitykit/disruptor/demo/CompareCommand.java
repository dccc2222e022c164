package io.github.affinitykit.disruptor.demo;

import static io.github.affinitykit.core.cli.OptionTable.key;
import static io.github.affinitykit.disruptor.demo.DemoFlags.RATE;
import static io.github.affinitykit.disruptor.demo.DemoFlags.count;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cli.OptionTable;
import io.github.affinitykit.core.cli.OptionTable.Key;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;

/**
 * {@code disruptor-demo compare-queues}: the same 1P→1C and 1P→3C pipelines on the queues people
 * write instead (ArrayBlockingQueue, LinkedBlockingQueue, Agrona's OneToOneConcurrentArrayQueue
 * busy-polled and parked) beside the Disruptor's strategies, unpinned and pinned, in one run.
 *
 * <p>Thread safety: one instance per run.
 */
@Command(
    name = "compare-queues",
    description =
        "The Disruptor against the queues people write instead, 1P→1C and 1P→3C, unpinned and"
            + " pinned: throughput, p50/p99, consumer context switches/s, CPU. About a minute"
            + " on 2 CPUs.")
final class CompareCommand extends PipelineCommand<CompareOptions> {
  private static final Key<String> CONTENDERS = key("--contenders", String.class);

  /** A comparison on the kit {@code kits} supplies, printing its table to {@code console}. */
  CompareCommand(Supplier<AffinityKit> kits, PrintStream console) {
    super(
        kits,
        console,
        OptionTable.of(
            DemoFlags.quick(),
            count(DemoFlags.BURST_MS, "flat out per row (400; 40)"),
            count(DemoFlags.PACED_EVENTS, "events per row at --rate, for latency (4000; 300)"),
            DemoFlags.rate(),
            count(DemoFlags.WARMUP_MS, "JIT warm-up before the table (3000; 200)"),
            count(DemoFlags.RING, "ring slots and queue capacity, a power of two (1024)"),
            DemoFlags.shapes(),
            DemoFlags.pinning(),
            DemoFlags.list(CONTENDERS, "", "abq,lbq,agrona-spin,... (all)")));
  }

  @Override
  CompareOptions options() {
    int ringSize = ring(DemoFlags.RING);
    return new CompareOptions(
        atLeast(DemoFlags.BURST_MS, 400, 40, 1),
        atLeast(DemoFlags.PACED_EVENTS, 4_000, 300, 1),
        atLeast(RATE, 10_000, 10_000, 1),
        atLeast(DemoFlags.WARMUP_MS, 3_000, 200, 0),
        ringSize,
        shapes(),
        pinnings(),
        contenders());
  }

  @Override
  boolean run(AffinityKit kit, CompareOptions options, PrintStream out)
      throws InterruptedException {
    return CompareRun.run(kit, options, out);
  }

  private List<Contender> contenders() {
    String contenders = value(CONTENDERS);
    if (contenders.isBlank()) {
      return List.of(Contender.values());
    }
    List<Contender> out = new ArrayList<>();
    for (String c : contenders.split(",")) {
      out.add(
          Contender.parse(c)
              .orElseThrow(
                  () ->
                      badValue(
                          CONTENDERS,
                          contenders,
                          Arrays.stream(Contender.values())
                              .map(Contender::label)
                              .collect(Collectors.joining(", ")))));
    }
    return out;
  }
}
