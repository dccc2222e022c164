package io.github.affinitykit.bench.load;

import java.util.List;
import org.HdrHistogram.Histogram;

/** Synthetic trials for the verdict's and the reports' tests. */
final class Trials {
  private Trials() {}

  /** A warm, undisturbed trial with these figures (the server at {@code cpuPercent}). */
  static Trial of(
      Scenario s, int repeat, double cpuUs, long p99Us, long capacity, double cpuPercent) {
    return new Trial(
        s,
        repeat,
        37_500, // the rate of the outcomes the tests build
        new Warmup(6_000_000_000L, true, 6, cpuPercent, 1000, List.of(cpuUs, cpuUs, cpuUs)),
        load(p99Us),
        cpuPercent,
        cpuUs,
        100,
        10,
        0.8,
        1,
        5,
        1,
        false,
        0.5,
        90,
        new CapacityRamp.Result(capacity, false, List.of(new CapacityRamp.Step(37_500, true))));
  }

  /** A warm, undisturbed trial of {@code s} at {@code rate}, the server at {@code cpuPercent}. */
  static Trial at(Scenario s, long rate, double cpuPercent) {
    Trial t = of(s, 0, 10, 1_000, 100_000, cpuPercent);
    return new Trial(
        s,
        0,
        rate,
        t.warmup(),
        t.load(),
        cpuPercent,
        t.cpuUsPerMessage(),
        t.voluntaryPerSecond(),
        t.involuntaryPerSecond(),
        t.switchesPerMessage(),
        t.migrationsPerSecond(),
        t.pressurePercent(),
        t.othersCpuPercent(),
        t.contaminated(),
        t.idleCpuPercent(),
        t.clientCpuPercent(),
        t.capacity());
  }

  /** The same trial, disturbed by other processes. */
  static Trial disturbed(Trial t) {
    return with(t, t.warmup(), 40, 35, true, t.capacity());
  }

  /** The same trial, its warm-up not steady after 15 s. */
  static Trial cold(Trial t) {
    Warmup w = new Warmup(15_000_000_000L, false, 15, 30, 1000, List.of(12.0, 10.0, 9.0));
    return with(t, w, t.pressurePercent(), t.othersCpuPercent(), t.contaminated(), t.capacity());
  }

  /** The same trial, with this capacity ramp's result. */
  static Trial capacity(Trial t, CapacityRamp.Result capacity) {
    return with(
        t, t.warmup(), t.pressurePercent(), t.othersCpuPercent(), t.contaminated(), capacity);
  }

  private static Trial with(
      Trial t,
      Warmup warmup,
      double pressure,
      double others,
      boolean contaminated,
      CapacityRamp.Result capacity) {
    return new Trial(
        t.scenario(),
        t.repeat(),
        t.rate(),
        warmup,
        t.load(),
        t.serverCpuPercent(),
        t.cpuUsPerMessage(),
        t.voluntaryPerSecond(),
        t.involuntaryPerSecond(),
        t.switchesPerMessage(),
        t.migrationsPerSecond(),
        pressure,
        others,
        contaminated,
        t.idleCpuPercent(),
        t.clientCpuPercent(),
        capacity);
  }

  /** 1,000 echoes in one second, 98 of 100 at 200 µs and the rest at {@code p99Us}. */
  static LoadResult load(long p99Us) {
    Histogram h = new Histogram(3);
    for (int i = 0; i < 100; i++) {
      h.recordValue(i < 98 ? 200_000 : p99Us * 1_000);
    }
    return new LoadResult(1000, 1000, 0, 0, 0, 1_000_000_000L, h);
  }
}
