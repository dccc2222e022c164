package io.github.affinitykit.bench.load;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import picocli.CommandLine;

/**
 * The gateway load test, the project's main job: first the rate at which the unpinned gateway uses
 * ~80% of its server CPUs (calibrated, unless {@code --rate} fixes it); then for each scenario
 * (unpinned, whole server under taskset, pinned loops, pinned + rest of the JVM confined, pinned
 * loops that spin before blocking) a fresh gateway JVM per trial, the same offered load from a
 * client pinned to other CPUs, an idle window and a capacity ramp, interleaved repeats; then a
 * verdict, a table, JSON and HTML.
 *
 * <p>Run: {@code java -cp jmh-benchmarks/target/benchmarks.jar
 * io.github.affinitykit.bench.load.LoadTest [options]} ({@code --help} lists them).
 *
 * <p>Thread safety: a main program.
 */
public final class LoadTest {
  private LoadTest() {}

  /**
   * Runs the comparison and writes the reports; exits 0 when done, 2 after a bad configuration (one
   * line on the error stream), 1 if a trial failed.
   */
  public static void main(String[] args) {
    System.exit(execute(List.of(args), System.out, System.err));
  }

  /**
   * Runs the command line {@code args}, printing to {@code out} and {@code err}; the exit status.
   */
  static int execute(List<String> args, PrintStream out, PrintStream err) {
    return CommandLines.execute(new CommandLine(new LoadTestCommand(out)), args, out, err);
  }

  /**
   * Calibrates the rate (unless {@code --rate} fixed it), then runs every trial, interleaving
   * scenarios, printing progress with the time left to {@code progress}.
   */
  public static LoadOutcome run(LoadTestOptions o, PrintStream progress)
      throws IOException, InterruptedException {
    Files.createDirectories(o.out());
    Path log = o.out().resolve("gateway.log");
    Files.deleteIfExists(log);
    HostFacts host = HostFacts.of(HostCpus.probe(), o);
    List<String> notes = new ArrayList<>();
    List<Scenario> scenarios = runnable(o, notes);
    notes.forEach(progress::println);
    progress.printf(
        "load test: %s, server CPUs %s, client CPUs %s, housekeeping %s, %d connections, %s, ~%s%n",
        scenarios.stream().map(Scenario::label).toList(),
        o.serverCpus(),
        o.clientCpus(),
        o.housekeepingCpus().isEmpty() ? "all but the server's" : o.housekeepingCpus().toString(),
        o.load().connections(),
        o.search().calibrate()
            ? "rate calibrated to " + fmt(o.search().targetCpuPercent()) + "% server CPU"
            : o.load().fixedRate() ? o.load().ratePerSecond() + " msg/s" : "max throughput",
        human(o.expectedTotal()));
    RunClock clock = new RunClock(o, scenarios.size() * o.repeats());
    Optional<Calibration.Result> calibration = Optional.empty();
    long rate = o.load().ratePerSecond();
    if (o.search().calibrate()) {
      calibration = Optional.of(calibrate(o, log, progress, clock));
      rate = calibration.get().best().rate();
      progress.println(calibration.get().describe());
    }
    List<Trial> trials = new ArrayList<>();
    clock.trialsStart();
    for (int r = 0; r < o.repeats(); r++) {
      for (int i = 0; i < scenarios.size(); i++) {
        Scenario s = scenarios.get((i + r) % scenarios.size()); // rotate the order
        progress.printf(
            "[%d/%d] %-11s repeat %d at %,d msg/s  (%s left)%n",
            trials.size() + 1,
            clock.trials(),
            s.label(),
            r + 1,
            rate,
            human(clock.left(trials.size())));
        try (GatewayDriver gw = GatewayDriver.start(o, s, s.label() + " repeat " + r, log)) {
          trials.add(gw.trial(s, r, rate));
        }
      }
    }
    return new LoadOutcome(host, calibration, rate, scenarios, trials, notes);
  }

  /** The scenarios this gateway can run; a note for each one it cannot. */
  private static List<Scenario> runnable(LoadTestOptions o, List<String> notes) throws IOException {
    List<Scenario> out = new ArrayList<>(o.scenarios());
    if (out.contains(Scenario.PINNED_SPIN)
        && !GatewayProcess.hasOption(o.gateway(), "--idle-policy")) {
      out.remove(Scenario.PINNED_SPIN);
      notes.add(
          "pinned-spin: left out: the gateway ("
              + o.gateway().describe()
              + ") has no --idle-policy option (expected: a gateway with idle policies)");
    }
    if (out.isEmpty()) {
      throw new IOException("--scenarios: " + o.scenarios() + " (expected: one this gateway runs)");
    }
    return out;
  }

  /** The bounded search for the rate at which the unpinned gateway uses the target CPU%. */
  private static Calibration.Result calibrate(
      LoadTestOptions o, Path log, PrintStream progress, RunClock clock)
      throws IOException, InterruptedException {
    LoadSearch s = o.search();
    int cpus = o.serverCpus().size();
    Calibration c =
        new Calibration(
            s.targetCpuPercent() * cpus,
            LoadSearch.TOLERANCE_POINTS_PER_CPU * cpus,
            10_000L * cpus,
            s.calibrationProbes(),
            s.calibrationBudget().toNanos());
    int[] n = {0};
    try (GatewayDriver gw = GatewayDriver.start(o, Scenario.UNPINNED, "calibration", log)) {
      return c.search(
          rate -> {
            double cpu = gw.cpuPercentAt(rate);
            progress.printf(
                "calibrating %d/%d: %,d msg/s -> unpinned server %s (target %.0f%% CPU)  (%s left)%n",
                ++n[0],
                s.calibrationProbes(),
                rate,
                Double.isFinite(cpu)
                    ? String.format(Locale.ROOT, "at %.1f%% CPU", cpu)
                    : "did not keep up (p99 over the SLO or messages lost)",
                c.targetPercent(),
                human(clock.left(0)));
            return cpu;
          },
          System::nanoTime);
    }
  }

  /** Client threads confine themselves to the client CPUs, away from the server's. */
  static ThreadFactory clientThreads(CpuSet cpus) {
    AffinityBackend backend = AffinityBackend.detect();
    return r ->
        new Thread(
            () -> {
              if (backend.isSupported()) {
                backend.setAffinity(0, cpus);
              }
              r.run();
            },
            "load-client");
  }

  static String fmt(double v) {
    return String.format(java.util.Locale.ROOT, "%.0f", v);
  }

  static String human(Duration d) {
    long s = d.toSeconds();
    return s >= 60 ? (s / 60) + "m" + String.format("%02d", s % 60) + "s" : s + "s";
  }
}
