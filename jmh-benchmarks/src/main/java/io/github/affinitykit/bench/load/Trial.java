package io.github.affinitykit.bench.load;

import java.util.Locale;
import java.util.Objects;

/**
 * One trial: an arm's fresh gateway JVM under one load, and what both sides measured over the same
 * recorded window. It is usable, and enters the medians and the verdict, only if its warm-up
 * reached steady state and other processes left the machine alone; otherwise it is re-measured.
 *
 * <p>Thread safety: immutable.
 *
 * @param scenario how the server was placed
 * @param repeat which attempt of this arm (0-based), re-measurements included
 * @param rate the offered rate, msg/s (0 = maximum throughput)
 * @param warmup how its warm-up ended
 * @param load what the client measured
 * @param serverCpuPercent server CPU over the window, 100 = one CPU
 * @param cpuUsPerMessage server CPU µs per echoed message
 * @param voluntaryPerSecond server voluntary context switches per second
 * @param involuntaryPerSecond server involuntary context switches per second
 * @param switchesPerMessage server context switches (both kinds) per message
 * @param migrationsPerSecond server thread migrations per second
 * @param pressurePercent CPU pressure during the window: % of time some task (ours included) waited
 *     for a CPU
 * @param othersCpuPercent CPU other processes (neither the server, the client nor kernel threads)
 *     used during the window, 100 = one CPU
 * @param contaminated whether other processes used more than the threshold: reported apart
 * @param idleCpuPercent server CPU with its connections open and no traffic, 100 = one CPU (NaN
 *     without an idle window)
 * @param clientCpuPercent CPU the load test's own JVM (the client, its JIT and GC included) used
 *     over the window, 100 = one CPU
 * @param capacity the capacity ramp that followed the measurement on the same gateway
 */
public record Trial(
    Scenario scenario,
    int repeat,
    long rate,
    Warmup warmup,
    LoadResult load,
    double serverCpuPercent,
    double cpuUsPerMessage,
    double voluntaryPerSecond,
    double involuntaryPerSecond,
    double switchesPerMessage,
    double migrationsPerSecond,
    double pressurePercent,
    double othersCpuPercent,
    boolean contaminated,
    double idleCpuPercent,
    double clientCpuPercent,
    CapacityRamp.Result capacity) {

  /** Validates. */
  public Trial {
    Objects.requireNonNull(scenario, "scenario");
    Objects.requireNonNull(warmup, "warmup");
    Objects.requireNonNull(load, "load");
    Objects.requireNonNull(capacity, "capacity");
  }

  /**
   * Derives a trial from the server counters at the windows' edges and its capacity ramp; a
   * pressure threshold of 100 or more is off (PSI reads a little over 100% on a saturated machine).
   */
  static Trial of(
      Scenario scenario,
      int repeat,
      long rate,
      Measurement m,
      CapacityRamp.Result capacity,
      double noiseThresholdPercent,
      double pressureThresholdPercent) {
    LoadResult load = m.load();
    ServerStats from = m.from();
    ServerStats to = m.to();
    double seconds = Math.max(1, to.nanoTime() - from.nanoTime()) / 1e9;
    double pressure = (to.psiSomeUs() - from.psiSomeUs()) / 1e4 / seconds;
    double othersPercent = m.othersCpuPercent();
    return new Trial(
        scenario,
        repeat,
        rate,
        m.warmup(),
        load,
        m.cpuPercent(),
        (to.cpuNs() - from.cpuNs()) / 1e3 / Math.max(1, load.received()),
        (to.voluntary() - from.voluntary()) / seconds,
        (to.involuntary() - from.involuntary()) / seconds,
        m.switchesPerMessage(),
        (to.migrations() - from.migrations()) / seconds,
        pressure,
        othersPercent,
        othersPercent > noiseThresholdPercent
            || (pressureThresholdPercent < 100 && pressure > pressureThresholdPercent),
        m.idleCpuPercent(),
        m.clientCpuPercent(),
        capacity);
  }

  /** Returns whether the trial counts: warm, and not disturbed by other processes. */
  public boolean usable() {
    return warmup.steady() && !contaminated;
  }

  /** Why it does not count, in words; empty if it does. */
  String whyUnusable() {
    if (usable()) {
      return "";
    }
    String disturbed =
        String.format(
            Locale.ROOT,
            "disturbed: other processes used %.0f%% of a CPU, CPU pressure %.0f%%",
            othersCpuPercent,
            pressurePercent);
    if (!warmup.steady()) {
      return warmup.describe() + (contaminated ? ", and " + disturbed : "");
    }
    return disturbed;
  }

  /**
   * One line for progress: {@code steady after 6.0 s; 79.3% CPU, 9.12 CPU-µs/msg, 0.81
   * switches/msg, client JVM 95% CPU, p99 1,234 µs, capacity 98,000 msg/s}, and why it does not
   * count if it does not.
   */
  String summary() {
    String s =
        String.format(
            Locale.ROOT,
            "%s; %.1f%% CPU, %.2f CPU-\u00b5s/msg, %.2f switches/msg, client JVM %.0f%% CPU, p99"
                + " %,.0f \u00b5s, capacity %s msg/s",
            warmup.describe(),
            serverCpuPercent,
            cpuUsPerMessage,
            switchesPerMessage,
            clientCpuPercent,
            load.latencyUs(99),
            capacity.describe());
    return usable() ? s : s + "; NOT USABLE (" + whyUnusable() + "): measured again";
  }

  /** Returns the highest sustained rate of the capacity ramp, msg/s (0: none sustained). */
  double capacityRate() {
    return capacity.rate();
  }
}
