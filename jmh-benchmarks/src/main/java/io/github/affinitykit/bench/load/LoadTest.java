package io.github.affinitykit.bench.load;

import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import picocli.CommandLine;

/**
 * The gateway load test, the project's main job: first the rate at which the warmed unpinned
 * gateway uses ~80% of its server CPUs (calibrated, unless {@code --rate} fixes it); then for each
 * arm (unpinned, its two controls, whole server under taskset, pinned loops, pinned + rest of the
 * JVM confined, pinned loops that spin before blocking) a fresh gateway JVM per trial driven to
 * steady state, the same offered load from a client pinned to other CPUs, an idle window and a
 * capacity ramp, in interleaved rounds that measure again every trial that was not warm or was
 * disturbed, within the time budget; then a verdict, a table, JSON and HTML.
 *
 * <p>Run: {@code java -cp jmh-benchmarks/target/benchmarks.jar
 * io.github.affinitykit.bench.load.LoadTest [options]} ({@code --help} lists them).
 *
 * <p>Thread safety: a main program.
 */
public final class LoadTest {
  /** The handicap of the positive control: this share of the target CPU, burnt by the server. */
  static final double HANDICAP_SHARE = 0.2;

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
   * Calibrates the rate (unless {@code --rate} fixed it), then runs the trials in interleaved
   * rounds until every arm has its usable trials or the budget is spent, printing progress with the
   * time left to {@code progress}.
   */
  public static LoadOutcome run(LoadTestOptions o, PrintStream progress)
      throws IOException, InterruptedException {
    RunClock clock = new RunClock(o.search().budget(), o.expectedPerTrial(), System::nanoTime);
    Files.createDirectories(o.out());
    Path log = o.out().resolve("gateway.log");
    Files.deleteIfExists(log);
    HostCpus hostCpus = HostCpus.probe();
    List<String> notes = new ArrayList<>();
    List<Scenario> arms = runnable(o, notes);
    double handicapCpus =
        HANDICAP_SHARE * o.search().targetCpuPercent() * o.serverCpus().size() / 100;
    notes.forEach(progress::println);
    announce(o, arms, progress);
    TrialSchedule schedule = new TrialSchedule(arms, o.repeats(), o.search().remeasure());
    Optional<Calibration.Result> calibration = Optional.empty();
    long rate = o.load().ratePerSecond();
    if (o.search().calibrate()) {
      calibration = Optional.of(calibrate(o, log, progress, clock, schedule));
      rate = calibration.get().rate();
      progress.println(calibration.get().describe());
    }
    Handicap handicap =
        rate > 0
                && arms.contains(Scenario.HANDICAPPED)
                && GatewayProcess.hasOption(o.gateway(), "--work-ns")
            ? Handicap.perMessage(handicapCpus, rate)
            : Handicap.threads(handicapCpus);
    List<Trial> trials = new ArrayList<>();
    Run run = new Run(log, rate, calibration.map(OperatingRate::of), handicap, clock, schedule);
    boolean spent = !runTrials(o, run, trials, progress);
    HostFacts host =
        HostFacts.of(
            hostCpus,
            o,
            arms.contains(Scenario.EXCLUSIVE) ? Exclusivity.describe(o.isolate(), log) : "");
    return new LoadOutcome(
        host, calibration, rate, arms, trials, notes, handicap, spent, clock.elapsed());
  }

  /**
   * What every trial of a run shares; {@code rate} is the first round's, {@code recentre} moves it
   * for the rounds after (empty: every round at {@code rate}).
   */
  private record Run(
      Path log,
      long rate,
      Optional<OperatingRate> recentre,
      Handicap handicap,
      RunClock clock,
      TrialSchedule schedule) {}

  /**
   * Runs the schedule's trials into {@code trials}, then (with the default {@code --repeats})
   * rounds more while the budget has room for one; false if the budget ended it before every arm
   * had the usable trials asked for.
   */
  private static boolean runTrials(
      LoadTestOptions o, Run r, List<Trial> trials, PrintStream progress)
      throws IOException, InterruptedException {
    TrialSchedule schedule = r.schedule();
    // where an arm's capacity ramp descends from, once a trial of it found p99 over the SLO at the
    // operating point: its next trials need not walk down again (per arm: no arm steers another)
    Map<Scenario, Long> capacityFrom = new EnumMap<>(Scenario.class);
    long rate = r.rate();
    int round = 0;
    for (Optional<Scenario> next = schedule.next(); ; next = schedule.next()) {
      if (next.isEmpty() && o.search().extend() && r.clock().fitsRound(schedule.arms())) {
        progress.printf(
            "every arm has %s; a round more of every arm fits the budget: %s per arm%n",
            Sentences.trials(schedule.target()), Sentences.trials(schedule.extend()));
        next = schedule.next();
      }
      if (next.isEmpty()) {
        return true;
      }
      if (!r.clock().fits()) {
        return schedule.has(o.repeats()); // a round of its own the budget cut is no loss
      }
      if (schedule.rounds() != round) {
        round = schedule.rounds();
        rate = recentred(r, rate, trials, progress);
      }
      Scenario s = next.get();
      int attempt = r.schedule().attempt(s);
      progress.printf(
          "[%d/%d] %-11s trial %d%s at %,d msg/s  (%s)%n",
          trials.size() + 1,
          trials.size() + schedule.missing(),
          s.label(),
          attempt + 1,
          schedule.remeasuring(s) ? " (again)" : "",
          rate,
          r.clock().left(schedule.missing()));
      long t0 = System.nanoTime();
      Trial t;
      try (GatewayDriver gw =
          GatewayDriver.start(o, s, s.label() + " " + attempt, r.log(), r.handicap())) {
        t = gw.trial(s, attempt, rate, capacityFrom.getOrDefault(s, 0L), r.clock().deadlineNs());
      }
      capacityFrom.put(s, t.capacity().descentFrom(capacityFrom.getOrDefault(s, 0L)));
      r.clock().trialTook(System.nanoTime() - t0);
      schedule.done(s, t.usable());
      trials.add(t);
      progress.println("      " + t.summary());
    }
  }

  /** The rate a round that begins now runs at, after {@code trials}; said when it moves. */
  private static long recentred(Run r, long rate, List<Trial> trials, PrintStream progress) {
    if (r.recentre().isEmpty()) {
      return rate;
    }
    long next = r.recentre().get().next(trials);
    if (next != rate) {
      progress.println(r.recentre().get().describe(rate, next, trials));
    }
    return next;
  }

  /** The run's first line: arms, CPUs, load, trials, warm-up, budget. */
  private static void announce(LoadTestOptions o, List<Scenario> arms, PrintStream progress) {
    progress.printf(
        "load test: %s, server CPUs %s, client CPUs %s (%s), housekeeping %s, %d connections, %s;"
            + " %s per arm, each after a warm-up to steady state (%s, at most %s);"
            + " budget %s%n",
        arms.stream().map(Scenario::label).toList(),
        o.serverCpus(),
        o.clientCpus(),
        LoadClient.transport().name().toLowerCase(Locale.ROOT),
        o.housekeepingCpus().isEmpty() ? "all but the server's" : o.housekeepingCpus().toString(),
        o.load().connections(),
        o.search().calibrate()
            ? "rate calibrated to " + fmt(o.search().targetCpuPercent()) + "% server CPU"
            : o.load().fixedRate() ? o.load().ratePerSecond() + " msg/s" : "max throughput",
        Sentences.trials(o.repeats()),
        SteadyState.RULE,
        human(o.load().warmup()),
        human(o.search().budget()));
  }

  /** The arms this gateway can run, controls included; a note for each one it cannot. */
  private static List<Scenario> runnable(LoadTestOptions o, List<String> notes) throws IOException {
    List<Scenario> out = new ArrayList<>(Scenario.arms(o.scenarios(), o.search().controls()));
    if (out.contains(Scenario.PINNED_SPIN)
        && !GatewayProcess.hasOption(o.gateway(), "--wait-policy")) {
      out.remove(Scenario.PINNED_SPIN);
      notes.add(
          "pinned-spin: left out: the gateway ("
              + o.gateway().describe()
              + ") has no --wait-policy option (expected: a gateway with wait policies)");
    }
    if (out.isEmpty()) {
      throw new IOException("--scenarios: " + o.scenarios() + " (expected: one this gateway runs)");
    }
    return out;
  }

  /**
   * The bounded search for the rate at which the warmed unpinned gateway uses the target CPU%, on
   * one gateway JVM, then its refinement: a fit through probes around the search's answer, each on
   * a fresh gateway JVM warmed as a trial's is.
   */
  private static Calibration.Result calibrate(
      LoadTestOptions o, Path log, PrintStream progress, RunClock clock, TrialSchedule schedule)
      throws IOException, InterruptedException {
    LoadSearch s = o.search();
    int cpus = o.serverCpus().size();
    Calibration c =
        new Calibration(
            s.targetCpuPercent() * cpus,
            LoadSearch.TOLERANCE_POINTS_PER_CPU * cpus,
            LoadSearch.START_RATE_PER_CPU * cpus,
            s.calibrationProbes(),
            s.calibrationBudget().toNanos());
    CalibrationProgress shown =
        new CalibrationProgress(
            progress,
            c,
            s.calibrationProbes() + s.refinement().maxProbes(),
            () -> clock.left(schedule.missing()));
    Calibration.Result searched;
    try (GatewayDriver gw =
        GatewayDriver.start(o, Scenario.UNPINNED, "calibration", log, Handicap.NONE)) {
      searched = c.search(rate -> shown.probed(gw.probe(rate), false), System::nanoTime);
    }
    try {
      return s.refinement()
          .refine(
              searched,
              rate -> {
                try (GatewayDriver fresh =
                    GatewayDriver.start(
                        o, Scenario.UNPINNED, "calibration fit", log, Handicap.NONE)) {
                  return shown.probed(fresh.probe(rate), true);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              },
              System::nanoTime);
    } catch (UncheckedIOException e) {
      throw e.getCause();
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
    return s >= 60 ? (s / 60) + "m" + String.format(Locale.ROOT, "%02d", s % 60) + "s" : s + "s";
  }
}
