package io.github.affinitykit.bench.load;

import io.github.affinitykit.bench.load.Calibration.Point;
import io.github.affinitykit.bench.load.Calibration.Step;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The calibration's next rate from the probes so far: the rule {@link Calibration} documents,
 * assuming only that CPU% does not fall as the rate rises, and stopping with the reason where the
 * probes contradict that.
 *
 * <p>Thread safety: a value, used once.
 *
 * @param c the search
 * @param points every probe so far
 * @param mayRecheck whether a contradiction may still be measured again before it ends the search
 */
record Steering(Calibration c, List<Point> points, boolean mayRecheck) {
  /** The most a step outside a bracket may change the rate. */
  static final double MAX_STEP = 4;

  /** Inside a bracket the next rate stays this share of the bracket away from either end. */
  static final double MARGIN = 0.15;

  Step next() {
    List<Point> steer = latest(points.stream().filter(Point::steady).toList());
    if (steer.isEmpty()) {
      steer = latest(points); // nothing warm: the best there is, said in the result
    }
    Optional<Point[]> falling = falling(steer);
    if (falling.isPresent() && mayRecheck) {
      return new Step(falling.get()[0].rate(), null, true); // the lower rate, measured again
    }
    if (falling.isPresent()) {
      return stop(
          "CPU%% did not rise with the rate (%,d msg/s -> %s, %,d msg/s -> %s); the nearest"
              + " probe is used",
          falling.get()[0], falling.get()[1]);
    }
    double t = c.targetPercent();
    Optional<Point> lo =
        steer.stream()
            .filter(p -> p.keptUp() && p.cpuPercent() < t)
            .max(Comparator.comparingLong(Point::rate));
    Optional<Point> hi =
        steer.stream()
            .filter(p -> !p.keptUp() || p.cpuPercent() > t)
            .min(Comparator.comparingLong(Point::rate));
    long rate;
    if (lo.isPresent() && hi.isPresent()) {
      if (lo.get().rate() >= hi.get().rate()) {
        return stop(
            "CPU%% did not rise with the rate (%,d msg/s -> %s, %,d msg/s -> %s); the nearest"
                + " probe is used",
            hi.get(), lo.get());
      }
      if (hi.get().rate() <= lo.get().rate() * (1 + Calibration.RESOLUTION)) {
        return stop(
            "the target lies between %,d msg/s (%s) and %,d msg/s (%s), within the search's"
                + " resolution; the nearest is used",
            lo.get(), hi.get());
      }
      rate = inside(lo.get(), hi.get());
    } else if (lo.isPresent()) {
      rate = above(lo.get(), steer);
    } else {
      rate = below(hi.orElseThrow());
    }
    if (rate < Calibration.MIN_RATE) {
      return new Step(
          0,
          String.format(
              Locale.ROOT, "the server did not keep up even near %,d msg/s", Calibration.MIN_RATE),
          false);
    }
    long next = rate;
    if (points.stream().anyMatch(p -> p.rate() == next)) {
      return new Step(0, "no rate left to try between the probes; the nearest is used", false);
    }
    return new Step(next, null, false);
  }

  /** The last probe at each rate: a rate measured again counts as measured then. */
  private static List<Point> latest(List<Point> points) {
    Map<Long, Point> last = new LinkedHashMap<>();
    points.forEach(p -> last.put(p.rate(), p));
    return List.copyOf(last.values());
  }

  /**
   * Two probes where the higher rate cost less CPU, by more than the tolerance (a server that was
   * not kept up with counts as the most CPU): the data contradict a rising curve.
   */
  private Optional<Point[]> falling(List<Point> steer) {
    for (Point p : steer) {
      for (Point q : steer) {
        double cp = p.keptUp() ? p.cpuPercent() : Double.MAX_VALUE;
        double cq = q.keptUp() ? q.cpuPercent() : Double.MAX_VALUE;
        if (p.rate() < q.rate() && cp > cq + c.tolerancePercent()) {
          return Optional.of(new Point[] {p, q});
        }
      }
    }
    return Optional.empty();
  }

  /** Interpolated between the bracket's ends (geometric midpoint if the upper did not keep up). */
  private long inside(Point lo, Point hi) {
    double r;
    if (hi.keptUp()) {
      double f = (c.targetPercent() - lo.cpuPercent()) / (hi.cpuPercent() - lo.cpuPercent());
      r = lo.rate() + Math.min(1 - MARGIN, Math.max(MARGIN, f)) * (hi.rate() - lo.rate());
    } else {
      r = Math.sqrt((double) lo.rate() * hi.rate());
    }
    return Math.max(lo.rate() + 1, Math.min(hi.rate() - 1, round(r)));
  }

  /** Everything probed so far is below the target: the secant through the top two, or in scale. */
  private long above(Point top, List<Point> steer) {
    double t = c.targetPercent();
    Optional<Point> prev =
        steer.stream()
            .filter(p -> p.keptUp() && p.rate() < top.rate())
            .max(Comparator.comparingLong(Point::rate));
    double r = top.rate() * t / Math.max(1e-3, top.cpuPercent());
    if (prev.isPresent() && top.cpuPercent() > prev.get().cpuPercent()) {
      double slope =
          (top.cpuPercent() - prev.get().cpuPercent()) / (top.rate() - prev.get().rate());
      r = top.rate() + (t - top.cpuPercent()) / slope;
    }
    return Math.max(top.rate() + 1, round(Math.min(top.rate() * MAX_STEP, r)));
  }

  /** Everything probed so far is above the target, or was not kept up with: scaled down. */
  private long below(Point bottom) {
    double r =
        bottom.keptUp()
            ? bottom.rate() * c.targetPercent() / bottom.cpuPercent()
            : bottom.rate() / 2.0;
    return Math.min(bottom.rate() - 1, round(Math.max(bottom.rate() / MAX_STEP, r)));
  }

  /** Three significant digits: the rate a person reads and types. */
  static long round(double r) {
    if (r < 1_000) {
      return Math.round(r);
    }
    double scale = Math.pow(10, Math.floor(Math.log10(r)) - 2);
    return Math.round(Math.round(r / scale) * scale);
  }

  private static Step stop(String format, Point a, Point b) {
    return new Step(
        0, String.format(Locale.ROOT, format, a.rate(), cpu(a), b.rate(), cpu(b)), false);
  }

  private static String cpu(Point p) {
    return p.keptUp() ? String.format(Locale.ROOT, "%.1f%%", p.cpuPercent()) : "not kept up";
  }
}
