package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.audit.Pressure;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.disruptor.Pinning;
import io.github.affinitykit.disruptor.WaitKind;
import java.io.PrintStream;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * The Disruptor demo: 1P→1C and a 1P→3C pipeline, each wait strategy and the placement's choice,
 * with nothing, the consumers, or everything pinned; prints throughput, latency percentiles,
 * consumer context switches and CPUs used busy and idle as a Markdown table.
 *
 * <pre>
 * java -jar disruptor-demo/demo/target/disruptor-demo-app.jar [--quick]
 * </pre>
 *
 * <p>Thread safety: a program; runs on its main thread, which is also the producer.
 */
public final class DemoMain {
  private DemoMain() {}

  /**
   * Runs the demo on the shared kit. Exit status 0 when every event arrived in order, 1 when one
   * did not, 2 for a bad flag or pool override (one line on the error stream).
   *
   * @param args see {@code --help}
   */
  public static void main(String[] args) {
    System.exit(execute(AffinityKit::shared, List.of(args), System.out, System.err));
  }

  /** Runs the command line {@code args} on the kit {@code kits} supplies; the exit status. */
  static int execute(
      Supplier<AffinityKit> kits, List<String> args, PrintStream out, PrintStream err) {
    CommandLine cli =
        new CommandLine(new DemoCommand(kits, out))
            .addSubcommand(new CommandLine(new CompareCommand(kits, out)));
    return CommandLines.execute(cli, args, out, err);
  }

  /** Runs every scenario of {@code o}, printing as it goes; returns whether no event was lost. */
  static boolean run(AffinityKit kit, DemoOptions o, PrintStream out) throws InterruptedException {
    out.println("# Disruptor 4 demo, " + ZonedDateTime.now().withNano(0));
    printHost(kit, out);
    out.println(
        "per row: burst "
            + o.burstMs()
            + " ms flat out; "
            + o.pacedEvents()
            + " events at "
            + o.rate()
            + "/s for latency; idle "
            + o.idleMs()
            + " ms; ring "
            + o.ringSize());
    out.println("cpu pressure before: " + pressure());
    warmUp(kit, o);
    out.println();
    out.println(ResultTable.header());
    List<Result> results = new ArrayList<>();
    for (Scenario s : o.scenarios()) {
      Result r = new ScenarioRunner(kit, o).run(s);
      results.add(r);
      out.println(ResultTable.row(r));
    }
    out.println();
    out.println("cpu pressure after: " + pressure());
    out.println();
    out.println("Placement-chosen strategies:");
    out.print(ResultTable.choices(results));
    return results.stream().allMatch(r -> r.measured().errors() == 0);
  }

  /** Prints the host's CPUs, isolated set and pool, the JVM and the backend: two lines. */
  static void printHost(AffinityKit kit, PrintStream out) {
    HostCpus host = kit.host();
    out.println(
        "host: cpus "
            + host.reachable()
            + ", isolated "
            + (host.isolatedCpus().isEmpty() ? "none" : host.isolatedCpus())
            + ", pool "
            + kit.pool().cpus()
            + " ("
            + kit.pool().reason()
            + ")");
    out.println("jvm: " + Runtime.version() + "; backend: " + kit.backend().reason());
  }

  private static void warmUp(AffinityKit kit, DemoOptions o) throws InterruptedException {
    if (o.warmupMs() == 0) {
      return;
    }
    long perRun = Math.max(10, o.warmupMs() / 4);
    DemoOptions w = new DemoOptions(perRun, 1_000, o.rate(), 1, 0, o.ringSize(), 0, List.of());
    for (int consumers : new int[] {1, 3}) {
      for (WaitKind k : new WaitKind[] {WaitKind.SLEEPING, WaitKind.BLOCKING}) {
        new ScenarioRunner(kit, w).run(new Scenario(consumers, Pinning.UNPINNED, Optional.of(k)));
      }
    }
  }

  /** The {@code some} line of {@code /proc/pressure/cpu} as the kernel prints it, or why not. */
  static String pressure() {
    return Pressure.cpu()
        .map(
            p ->
                String.format(
                    Locale.ROOT,
                    "some avg10=%.2f avg60=%.2f avg300=%.2f total=%d",
                    p.some().avg10(),
                    p.some().avg60(),
                    p.some().avg300(),
                    p.some().totalUs()))
        .orElse("unavailable (no readable /proc/pressure/cpu)");
  }
}
