package io.github.affinitykit.disruptor.demo;

import static io.github.affinitykit.core.cli.OptionTable.key;
import static io.github.affinitykit.disruptor.demo.DemoFlags.RATE;
import static io.github.affinitykit.disruptor.demo.DemoFlags.count;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cli.OptionTable;
import io.github.affinitykit.core.cli.OptionTable.Key;
import io.github.affinitykit.disruptor.Pinning;
import io.github.affinitykit.disruptor.WaitKind;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.function.Supplier;
import picocli.CommandLine.Command;

/**
 * The demo's command line: flags into {@link DemoOptions}, the kit (a bad {@code
 * -Daffinitykit.pool} or {@code AFFINITYKIT_POOL} is one line and exit status 2), then the run.
 *
 * <p>Thread safety: one instance per run.
 */
@Command(
    name = "disruptor-demo",
    description =
        "Disruptor 4 with 1 and 3 consumers: each wait strategy and the placement's choice, with"
            + " nothing, the consumers or everything pinned. About a minute on 2 CPUs.")
final class DemoCommand extends PipelineCommand<DemoOptions> {
  private static final Key<Long> IDLE_MS = key("--idle-ms", Long.class);
  private static final Key<Long> AUDIT_MS = key("--audit-ms", Long.class);
  private static final Key<String> STRATEGIES = key("--strategies", String.class);

  /** A demo on the kit {@code kits} supplies, printing its table to {@code console}. */
  DemoCommand(Supplier<AffinityKit> kits, PrintStream console) {
    super(
        kits,
        console,
        OptionTable.of(
            DemoFlags.quick(),
            count(DemoFlags.BURST_MS, "flat-out publishing per row (400; 60)"),
            count(DemoFlags.PACED_EVENTS, "events per row at --rate, for latency (5000; 500)"),
            DemoFlags.rate(),
            count(IDLE_MS, "nothing published per row, for idle CPU (300; 60)"),
            count(DemoFlags.WARMUP_MS, "JIT warm-up before the table (2000; 300)"),
            count(DemoFlags.RING, "ring slots, a power of two (1024)"),
            count(AUDIT_MS, "audit window of the chosen strategy; 0 = no audit (0)"),
            DemoFlags.shapes(),
            DemoFlags.list(
                STRATEGIES,
                "busy-spin,yielding,sleeping,blocking,chosen",
                "busy-spin,yielding,sleeping,blocking,chosen (all)"),
            DemoFlags.pinning()));
  }

  @Override
  DemoOptions options() {
    int ringSize = ring(DemoFlags.RING);
    return new DemoOptions(
        atLeast(DemoFlags.BURST_MS, 400, 60, 1),
        atLeast(DemoFlags.PACED_EVENTS, 5_000, 500, 1),
        atLeast(RATE, 10_000, 10_000, 1),
        atLeast(IDLE_MS, 300, 60, 1),
        atLeast(DemoFlags.WARMUP_MS, 2_000, 300, 0),
        ringSize,
        atLeast(AUDIT_MS, 0, 0, 0),
        rows());
  }

  @Override
  boolean run(AffinityKit kit, DemoOptions options, PrintStream out) throws InterruptedException {
    return DemoMain.run(kit, options, out);
  }

  private List<Scenario> rows() {
    List<Scenario> out = new ArrayList<>();
    String strategies = value(STRATEGIES);
    for (int consumers : shapes()) {
      for (Pinning pinning : pinnings()) {
        for (String s : strategies.split(",")) {
          out.add(new Scenario(consumers, pinning, strategy(s, strategies)));
        }
      }
    }
    return List.copyOf(out);
  }

  private Optional<WaitKind> strategy(String name, String strategies) {
    if (name.strip().equalsIgnoreCase("chosen")) {
      return Optional.empty();
    }
    try {
      return Optional.of(WaitKind.parse(name));
    } catch (IllegalArgumentException e) {
      StringJoiner names = new StringJoiner(", ", "", " or chosen");
      for (WaitKind k : WaitKind.values()) {
        names.add(k.name().toLowerCase(Locale.ROOT).replace('_', '-'));
      }
      throw badValue(STRATEGIES, strategies, names.toString());
    }
  }
}
