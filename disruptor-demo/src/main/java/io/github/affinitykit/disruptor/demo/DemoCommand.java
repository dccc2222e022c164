package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.cli.KitVersion;
import io.github.affinitykit.disruptor.Pinning;
import io.github.affinitykit.disruptor.WaitKind;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The demo's command line: flags into {@link DemoOptions}, the kit (a bad {@code
 * -Daffinitykit.pool} or {@code AFFINITYKIT_POOL} is one line and exit status 2), then the run.
 *
 * <p>Thread safety: one instance per run.
 */
@Command(
    name = "disruptor-demo",
    mixinStandardHelpOptions = true,
    versionProvider = KitVersion.class,
    sortOptions = false,
    description =
        "Disruptor 4 with 1 and 3 consumers: each wait strategy and the placement's choice, with"
            + " nothing, the consumers or everything pinned. About a minute on 2 CPUs.",
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
      "0:every event arrived, in order",
      "1:an event was lost or reordered",
      "2:a bad option or pool override (-Daffinitykit.pool, AFFINITYKIT_POOL)"
    })
final class DemoCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(names = "--quick", description = "a few seconds: the defaults after the semicolons")
  private boolean quick;

  @Option(
      names = "--burst-ms",
      paramLabel = "N",
      description = "flat-out publishing per row (400; 60)")
  private Long burstMs;

  @Option(
      names = "--paced-events",
      paramLabel = "N",
      description = "events per row at --rate, for latency (5000; 500)")
  private Long pacedEvents;

  @Option(names = "--rate", paramLabel = "N/s", description = "paced events per second (10000)")
  private Long rate;

  @Option(
      names = "--idle-ms",
      paramLabel = "N",
      description = "nothing published per row, for idle CPU (300; 60)")
  private Long idleMs;

  @Option(
      names = "--warmup-ms",
      paramLabel = "N",
      description = "JIT warm-up before the table (2000; 300)")
  private Long warmupMs;

  @Option(names = "--ring", paramLabel = "N", description = "ring slots, a power of two (1024)")
  private Long ring;

  @Option(
      names = "--audit-ms",
      paramLabel = "N",
      description = "audit window of the chosen strategy; 0 = no audit (0)")
  private Long auditMs;

  @Option(names = "--shapes", paramLabel = "LIST", description = "consumers per pipeline (1,3)")
  private String shapes = "1,3";

  @Option(
      names = "--strategies",
      paramLabel = "LIST",
      description = "busy-spin,yielding,sleeping,blocking,chosen (all)")
  private String strategies = "busy-spin,yielding,sleeping,blocking,chosen";

  @Option(names = "--pinning", paramLabel = "LIST", description = "none,consumers,all (all three)")
  private String pinnings = "none,consumers,all";

  private final Supplier<AffinityKit> kits;
  private final PrintStream console;

  /** A demo on the kit {@code kits} supplies, printing its table to {@code console}. */
  DemoCommand(Supplier<AffinityKit> kits, PrintStream console) {
    this.kits = Objects.requireNonNull(kits, "kits");
    this.console = Objects.requireNonNull(console, "console");
  }

  @Override
  public Integer call() throws InterruptedException {
    DemoOptions o = options();
    AffinityKit kit = CommandLines.configured(spec, kits);
    return DemoMain.run(kit, o, console) ? 0 : 1;
  }

  /**
   * Returns the checked options.
   *
   * @throws picocli.CommandLine.ParameterException naming the flag, the value and the rule
   */
  DemoOptions options() {
    int ringSize = DemoFlags.ring(spec, ring);
    return new DemoOptions(
        atLeast("--burst-ms", burstMs, 400, 60, 1),
        atLeast("--paced-events", pacedEvents, 5_000, 500, 1),
        atLeast("--rate", rate, 10_000, 10_000, 1),
        atLeast("--idle-ms", idleMs, 300, 60, 1),
        atLeast("--warmup-ms", warmupMs, 2_000, 300, 0),
        ringSize,
        atLeast("--audit-ms", auditMs, 0, 0, 0),
        rows());
  }

  private long atLeast(String name, Long value, long normal, long quickly, long min) {
    return DemoFlags.atLeast(spec, quick, name, value, normal, quickly, min);
  }

  private List<Scenario> rows() {
    List<Scenario> out = new ArrayList<>();
    for (int consumers : DemoFlags.shapes(spec, shapes)) {
      for (Pinning pinning : DemoFlags.pinnings(spec, pinnings)) {
        for (String s : strategies.split(",")) {
          out.add(new Scenario(consumers, pinning, strategy(s)));
        }
      }
    }
    return List.copyOf(out);
  }

  private Optional<WaitKind> strategy(String name) {
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
