package io.github.affinitykit.bench.load;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The bounded search for the offered rate at which a server uses a target CPU%: a first probe, a
 * proportional step (CPU% roughly grows with the rate), then regula falsi between the nearest
 * probes below and above the target, or a secant through the two nearest when they do not bracket
 * it. It stops within {@code tolerance} of the target, after {@code maxProbes} probes, or when the
 * next probe would end after the time budget, and answers with the probe nearest the target: a
 * measured point, never an extrapolation. A probe the server could not keep up with answers {@code
 * +Infinity}: it counts as above the target, and the next rate stays below it.
 *
 * <p>Thread safety: a value; {@link #search} calls its probe from the calling thread only.
 *
 * @param targetPercent the CPU% sought (100 = one CPU)
 * @param tolerancePercent stop when a probe is this close to the target (CPU% points)
 * @param startRate the first probe's rate, msg/s
 * @param maxProbes at most this many probes
 * @param budgetNs no probe starts that would end after this long since the search began
 */
record Calibration(
    double targetPercent, double tolerancePercent, long startRate, int maxProbes, long budgetNs) {

  /** The lowest rate probed: below it the CPU% is mostly the server's idle cost. */
  static final long MIN_RATE = 100;

  /** Measures the server's CPU% at an offered rate. */
  interface Probe {
    /**
     * Offers {@code rate} msg/s and returns the server's CPU% over the recorded window, or {@code
     * +Infinity} if the server did not keep up with it.
     */
    double cpuPercentAt(long rate) throws InterruptedException;
  }

  /** One probe's outcome. */
  record Point(long rate, double cpuPercent) {}

  /**
   * What the search found.
   *
   * @param target the CPU% sought
   * @param best the probe nearest the target: its rate is the one every scenario then runs at
   * @param probes every probe, in order
   * @param stop why the search ended
   */
  record Result(double target, Point best, List<Point> probes, String stop) {
    /** One line for the console and the report. */
    String describe() {
      if (Double.isInfinite(best.cpuPercent())) {
        return String.format(
            Locale.ROOT,
            "calibrated: %,d msg/s, the lowest of %d probes; the unpinned server kept up with none"
                + " (%s)",
            best.rate(),
            probes.size(),
            stop);
      }
      return String.format(
          Locale.ROOT,
          "calibrated: %,d msg/s, unpinned server at %.1f%% CPU (target %.0f%%, %d probes,"
              + " regula falsi/secant on CPU%% vs rate; %s)",
          best.rate(),
          best.cpuPercent(),
          target,
          probes.size(),
          stop);
    }
  }

  /** Validates. */
  Calibration {
    if (!(targetPercent > 0) || !(tolerancePercent > 0) || startRate < MIN_RATE || maxProbes < 1) {
      throw new IllegalArgumentException(
          "calibration: target "
              + targetPercent
              + ", tolerance "
              + tolerancePercent
              + ", start "
              + startRate
              + ", probes "
              + maxProbes
              + " (expected: > 0, > 0, >= "
              + MIN_RATE
              + ", >= 1)");
    }
  }

  /** Runs the search with {@code probe}, timing probes by {@code clock} (ns). */
  Result search(Probe probe, LongSupplier clock) throws InterruptedException {
    Objects.requireNonNull(probe, "probe");
    long began = clock.getAsLong();
    List<Point> points = new ArrayList<>();
    long rate = startRate;
    long longestNs = 0;
    String stop = "probe limit " + maxProbes;
    while (points.size() < maxProbes) {
      long t0 = clock.getAsLong();
      if (!points.isEmpty() && t0 - began + longestNs > budgetNs) {
        stop = "time budget " + budgetNs / 1_000_000_000L + " s";
        break;
      }
      Point p = new Point(rate, probe.cpuPercentAt(rate));
      longestNs = Math.max(longestNs, clock.getAsLong() - t0);
      points.add(p);
      if (Math.abs(p.cpuPercent() - targetPercent) <= tolerancePercent) {
        stop = String.format(Locale.ROOT, "within %.0f points", tolerancePercent);
        break;
      }
      long next = next(points);
      if (points.stream().anyMatch(q -> q.rate() == next)) {
        stop = "no better rate to try";
        break;
      }
      rate = next;
    }
    Point best =
        points.stream().allMatch(p -> Double.isInfinite(p.cpuPercent()))
            ? points.stream().min(Comparator.comparingLong(Point::rate)).orElseThrow()
            : nearest(points);
    return new Result(targetPercent, best, List.copyOf(points), stop);
  }

  /**
   * The next rate: interpolated on the CPU% curve of the probes the server kept up with, clamped to
   * 4x either way, below every rate it could not keep up with, and >= MIN_RATE.
   */
  long next(List<Point> points) {
    long saturated =
        points.stream()
            .filter(p -> Double.isInfinite(p.cpuPercent()))
            .mapToLong(Point::rate)
            .min()
            .orElse(Long.MAX_VALUE);
    List<Point> kept = points.stream().filter(p -> Double.isFinite(p.cpuPercent())).toList();
    long below = kept.stream().mapToLong(Point::rate).filter(r -> r < saturated).max().orElse(0);
    long cap =
        saturated == Long.MAX_VALUE
            ? Long.MAX_VALUE
            : below == 0 ? saturated / 2 : Math.round(Math.sqrt((double) below * saturated));
    if (kept.isEmpty()) {
      return Math.max(MIN_RATE, cap);
    }
    return Math.max(MIN_RATE, Math.min(cap, interpolate(kept)));
  }

  private long interpolate(List<Point> points) {
    Point a = nearest(points);
    Point below = closest(points, true);
    Point above = closest(points, false);
    Point b;
    if (below != null && above != null) {
      a = below;
      b = above;
    } else {
      b = points.stream().filter(p -> p != nearest(points)).min(byDistance()).orElse(null);
    }
    double estimate;
    if (b == null || b.cpuPercent() == a.cpuPercent() || b.rate() == a.rate()) {
      estimate = a.rate() * targetPercent / Math.max(1e-3, a.cpuPercent());
    } else {
      double slope = (b.cpuPercent() - a.cpuPercent()) / (b.rate() - a.rate());
      estimate =
          slope > 0
              ? a.rate() + (targetPercent - a.cpuPercent()) / slope
              : a.rate() * targetPercent / Math.max(1e-3, a.cpuPercent());
    }
    long lo = points.stream().mapToLong(Point::rate).min().orElse(startRate) / 4;
    long hi = points.stream().mapToLong(Point::rate).max().orElse(startRate) * 4;
    return Math.max(MIN_RATE, Math.min(hi, Math.max(lo, Math.round(estimate))));
  }

  private Point nearest(List<Point> points) {
    return points.stream().min(byDistance()).orElseThrow();
  }

  private Comparator<Point> byDistance() {
    return Comparator.comparingDouble(p -> Math.abs(p.cpuPercent() - targetPercent));
  }

  /** The probe nearest the target from below (or above); null if none. */
  private Point closest(List<Point> points, boolean fromBelow) {
    return points.stream()
        .filter(p -> fromBelow ? p.cpuPercent() < targetPercent : p.cpuPercent() > targetPercent)
        .min(byDistance())
        .orElse(null);
  }
}
