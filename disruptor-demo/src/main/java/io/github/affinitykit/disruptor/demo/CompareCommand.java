package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.cli.OptionTable;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

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
final class CompareCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Mixin
  private final CommandSpec flags =
      OptionTable.of(
          DemoFlags.quick(),
          DemoFlags.count("--burst-ms", "flat out per row (400; 40)"),
          DemoFlags.count("--paced-events", "events per row at --rate, for latency (4000; 300)"),
          DemoFlags.rate(),
          DemoFlags.count("--warmup-ms", "JIT warm-up before the table (3000; 200)"),
          DemoFlags.count("--ring", "ring slots and queue capacity, a power of two (1024)"),
          DemoFlags.shapes(),
          DemoFlags.pinning(),
          DemoFlags.list("--contenders", "", "abq,lbq,agrona-spin,... (all)"));

  @Mixin private final DemoUsage usage = new DemoUsage(); // -h, -V, exit statuses

  private final KitRun kit;

  /** A comparison on the kit {@code kits} supplies, printing its table to {@code console}. */
  CompareCommand(Supplier<AffinityKit> kits, PrintStream console) {
    this.kit = new KitRun(kits, console);
  }

  @Override
  public Integer call() throws InterruptedException {
    return kit.run(spec, options(), CompareRun::run);
  }

  /**
   * Returns the checked options.
   *
   * @throws picocli.CommandLine.ParameterException naming the flag, the value and the rule
   */
  CompareOptions options() {
    int ringSize = DemoFlags.ring(spec, flags);
    return new CompareOptions(
        atLeast("--burst-ms", 400, 40),
        atLeast("--paced-events", 4_000, 300),
        atLeast("--rate", 10_000, 10_000),
        DemoFlags.atLeast(spec, flags, "--warmup-ms", 3_000, 200, 0),
        ringSize,
        DemoFlags.shapes(spec, flags),
        DemoFlags.pinnings(spec, flags),
        contenders());
  }

  private long atLeast(String name, long normal, long quickly) {
    return DemoFlags.atLeast(spec, flags, name, normal, quickly, 1);
  }

  private List<Contender> contenders() {
    String contenders = OptionTable.value(flags, "--contenders");
    if (contenders.isBlank()) {
      return List.of(Contender.values());
    }
    List<Contender> out = new ArrayList<>();
    for (String c : contenders.split(",")) {
      out.add(
          Contender.parse(c)
              .orElseThrow(
                  () ->
                      CommandLines.badValue(
                          spec,
                          "--contenders",
                          contenders,
                          Arrays.stream(Contender.values())
                              .map(Contender::label)
                              .collect(Collectors.joining(", ")))));
    }
    return out;
  }
}
