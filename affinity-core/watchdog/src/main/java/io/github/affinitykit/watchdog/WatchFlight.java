package io.github.affinitykit.watchdog;

/**
 * Tells Flight Recorder what the watchdog did, where the runtime has {@code jdk.jfr}; without the
 * module nothing is done and no {@code jdk.jfr} class is loaded (as core's {@code Flight}). The
 * moves and losses the lease's own checks find are core's events.
 *
 * <p>Thread safety: any thread may call any method.
 */
final class WatchFlight {
  private WatchFlight() {}

  /** Whether {@code jdk.jfr} is in the boot layer: asked once, at the first call. */
  private static final class Module {
    static final boolean PRESENT = ModuleLayer.boot().findModule("jdk.jfr").isPresent();
  }

  /** A re-pin of a moved thread, done or not (the fields as {@link LeaseRepinnedEvent}'s). */
  static void repinned(int cpu, int tid, boolean repinned, String allowed, String detail) {
    if (Module.PRESENT) {
      LeaseRepinnedEvent.commit(cpu, tid, repinned, allowed, detail);
    }
  }

  /** Whether a recording takes {@code PinnedCpu}: the checks read context switches only then. */
  static boolean pinnedCpuEnabled() {
    return Module.PRESENT && PinnedCpuEvent.enabled();
  }

  /** One pinned thread at a check. */
  static void pinnedCpu(PinnedCpuSample s) {
    if (Module.PRESENT) {
      PinnedCpuEvent.commit(s);
    }
  }
}
