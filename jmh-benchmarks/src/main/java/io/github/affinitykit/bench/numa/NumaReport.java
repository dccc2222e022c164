package io.github.affinitykit.bench.numa;

import java.util.List;
import java.util.Locale;

/** The seed experiment's table. Thread safety: stateless. */
final class NumaReport {
  private NumaReport() {}

  /** One row per mode, then how much slower the seed's layout was than the local one. */
  static String table(List<ModeResult> results) {
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "%-12s %16s %16s  %s%n",
            "layout",
            "pass (median)",
            "own-node pages",
            "pages"));
    ModeResult firstTouch = null;
    ModeResult local = null;
    for (ModeResult r : results) {
      s.append(
          String.format(
              Locale.ROOT,
              "%-12s %13.1f ms %15.0f%%  %s%n",
              r.mode().label(),
              r.medianPassNanos() / 1e6,
              100 * r.ownNodeShare(),
              r.pages()));
      firstTouch = r.mode() == NumaMode.FIRST_TOUCH ? r : firstTouch;
      local = r.mode() == NumaMode.LOCAL ? r : local;
    }
    if (firstTouch != null && local != null && local.medianPassNanos() > 0) {
      s.append(
          String.format(
              Locale.ROOT,
              "first-touch / local: %.2fx the time per pass%n",
              (double) firstTouch.medianPassNanos() / local.medianPassNanos()));
    }
    return s.toString();
  }
}
