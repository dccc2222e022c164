package io.github.affinitykit.jitter;

import java.util.List;

/**
 * Tells Flight Recorder about the gaps over the threshold, where the runtime has {@code jdk.jfr};
 * without the module nothing is done and no {@code jdk.jfr} class is loaded (as core's {@code
 * Flight}).
 *
 * <p>Thread safety: any thread may call it.
 */
final class GapFlight {
  private GapFlight() {}

  /** Whether {@code jdk.jfr} is in the boot layer: asked once, at the first call. */
  private static final class Module {
    static final boolean PRESENT = ModuleLayer.boot().findModule("jdk.jfr").isPresent();
  }

  static void gaps(List<Gap> gaps) {
    if (Module.PRESENT && !gaps.isEmpty()) {
      JitterGapEvent.commit(gaps);
    }
  }
}
