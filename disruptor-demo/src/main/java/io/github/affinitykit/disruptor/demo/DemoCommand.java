package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.cli.OptionTable;
import io.github.affinitykit.disruptor.Pinning;
import io.github.affinitykit.disruptor.WaitKind;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

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
final class DemoCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Mixin
  private final CommandSpec flags =
      OptionTable.of(
          DemoFlags.quick(),
          DemoFlags.count("--burst-ms", "flat-out publishing per row (400; 60)"),
          DemoFlags.count("--paced-events", "events per row at --rate, for latency (5000; 500)"),
          DemoFlags.rate(),
          DemoFlags.count("--idle-ms", "nothing published per row, for idle CPU (300; 60)"),
          DemoFlags.count("--warmup-ms", "JIT warm-up before the table (2000; 300)"),
          DemoFlags.count("--ring", "ring slots, a power of two (1024)"),
          DemoFlags.count("--audit-ms", "audit window of the chosen strategy; 0 = no audit (0)"),
          DemoFlags.shapes(),
          DemoFlags.list(
              "--strategies",
              "busy-spin,yielding,sleeping,blocking,chosen",
              "busy-spin,yielding,sleeping,blocking,chosen (all)"),
          DemoFlags.pinning());

  @Mixin private final DemoUsage usage = new DemoUsage(); // -h, -V, exit statuses

  private final KitRun kit;

  /** A demo on the kit {@code kits} supplies, printing its table to {@code console}. */
  DemoCommand(Supplier<AffinityKit> kits, PrintStream console) {
    this.kit = new KitRun(kits, console);
  }

  @Override
  public Integer call() throws InterruptedException {
    return kit.run(spec, options(), DemoMain::run);
  }

  /**
   * Returns the checked options.
   *
   * @throws picocli.CommandLine.ParameterException naming the flag, the value and the rule
   */
  DemoOptions options() {
    int ringSize = DemoFlags.ring(spec, flags);
    return new DemoOptions(
        atLeast("--burst-ms", 400, 60, 1),
        atLeast("--paced-events", 5_000, 500, 1),
        atLeast("--rate", 10_000, 10_000, 1),
        atLeast("--idle-ms", 300, 60, 1),
        atLeast("--warmup-ms", 2_000, 300, 0),
        ringSize,
        atLeast("--audit-ms", 0, 0, 0),
        rows());
  }

  private long atLeast(String name, long normal, long quickly, long min) {
    return DemoFlags.atLeast(spec, flags, name, normal, quickly, min);
  }

  private List<Scenario> rows() {
    List<Scenario> out = new ArrayList<>();
    String strategies = OptionTable.value(flags, "--strategies");
    for (int consumers : DemoFlags.shapes(spec, flags)) {
      for (Pinning pinning : DemoFlags.pinnings(spec, flags)) {
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
      throw CommandLines.badValue(spec, "--strategies", strategies, names.toString());
    }
  }
}
