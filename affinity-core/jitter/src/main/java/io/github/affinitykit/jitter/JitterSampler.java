package io.github.affinitykit.jitter;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroupBuilder;
import io.github.affinitykit.core.cpu.CpuSet;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Measures the jitter a thread pinned to a CPU sees, and what caused it: one sampling thread per
 * CPU of a set, each pinned through the kit's normal protocol (a group with those CPUs, one seat
 * each, leases closed when the window ends), spins reading {@link System#nanoTime()} back to back
 * for the window and records every gap between two consecutive reads at or above a floor (1 µs by
 * default): their histogram ({@link GapHistogram}), the longest with when they began (monotonic and
 * wall-clock), the time lost and its share of the window ({@link CpuJitter}). The clock is read
 * continuously, never on a schedule, so every gap is seen and none is counted for the sampler:
 * there is no coordinated omission.
 *
 * <p>Beside the samplers, the calling thread reads per-CPU counters: interrupts by source ({@code
 * /proc/interrupts}, the local timer {@code LOC} included), softirqs by type ({@code
 * /proc/softirqs}), tasks switched in ({@code /proc/schedstat}) and a hypervisor's steal time
 * ({@code /proc/stat}), at the window's start and end, and again each time a gap over the threshold
 * (10 µs by default) has ended, at most {@link #rereads(int)} times a window and spread over it;
 * each gap over the threshold is attributed to the counters that moved between the readings around
 * it ({@link Attribution}), else "unexplained". With {@link #audit(boolean)} (the default)
 * affinity-audit's {@code CpuAudit} watches the same CPUs over the same window on one more thread:
 * who else ran or may run there, by name. When the window ends, each gap over the threshold is
 * committed as a {@code io.github.affinitykit.JitterGap} Flight Recorder event (where the runtime
 * has {@code jdk.jfr} and a recording enabled it).
 *
 * <p><b>Cost.</b> A sampling thread is a busy CPU for the whole window: it spins at 100% and takes
 * that CPU from anything else that could run there (pick CPUs nothing needs during the window). The
 * calling thread blocks for the window and wakes every millisecond to check for gaps; each reading
 * of the counters reads four kernel files (tens of µs to a few ms, growing with the CPUs and IRQs
 * of the host), and the audit reads every task of the host up to 20 times. These run on whatever
 * CPU the caller and the audit thread may use: where that includes a sampled CPU, their own runs
 * show as gaps there, attributed to the task switches they cause. Nothing is allocated by a
 * sampling thread while it spins.
 *
 * <p>Thread safety: immutable; each setter returns a new sampler. {@link #run()} may be called from
 * any thread, several times and at once on disjoint CPUs; it blocks for the window.
 */
public final class JitterSampler {
  /** The floor by default: 1 µs. */
  public static final Duration DEFAULT_FLOOR = Duration.ofNanos(1_000);

  /** The threshold by default: 10 µs. */
  public static final Duration DEFAULT_THRESHOLD = Duration.ofNanos(10_000);

  static final long MIN_FLOOR_NS = 100;
  static final long MAX_FLOOR_NS = 1_000_000;
  static final Duration MAX_WINDOW = Duration.ofHours(24);
  static final int MAX_LARGEST = 1_000;
  static final int MAX_REREADS = 1_000;

  /** The most gaps over the threshold kept per CPU, in time order. */
  static final int LOG_CAPACITY = 1_000;

  private final AffinityKit kit;
  private final CpuSet cpus;
  private final Settings settings;

  /**
   * A sampler's settings but its kit and CPUs.
   *
   * @param window how long each thread samples
   * @param floorNs the shortest gap counted
   * @param thresholdNs the length from which a gap is logged and attributed
   * @param largest how many of the longest gaps are kept
   * @param rereads how many times the counters may be read again
   * @param root where the kernel's files are read
   * @param audit whether the audit runs beside
   * @param group how the sampling group is built beyond its CPUs
   */
  record Settings(
      Duration window,
      long floorNs,
      long thresholdNs,
      int largest,
      int rereads,
      Path root,
      boolean audit,
      UnaryOperator<CpuGroupBuilder> group) {
    Settings window(Duration w) {
      return new Settings(w, floorNs, thresholdNs, largest, rereads, root, audit, group);
    }

    Settings floor(long ns) {
      long t = Math.max(ns, thresholdNs);
      return new Settings(window, ns, t, largest, rereads, root, audit, group);
    }

    Settings threshold(long ns) {
      return new Settings(window, floorNs, ns, largest, rereads, root, audit, group);
    }

    Settings largest(int n) {
      return new Settings(window, floorNs, thresholdNs, n, rereads, root, audit, group);
    }

    Settings rereads(int n) {
      return new Settings(window, floorNs, thresholdNs, largest, n, root, audit, group);
    }

    Settings root(Path r) {
      return new Settings(window, floorNs, thresholdNs, largest, rereads, r, audit, group);
    }

    Settings audit(boolean a) {
      return new Settings(window, floorNs, thresholdNs, largest, rereads, root, a, group);
    }

    Settings group(UnaryOperator<CpuGroupBuilder> g) {
      return new Settings(window, floorNs, thresholdNs, largest, rereads, root, audit, g);
    }
  }

  private JitterSampler(AffinityKit kit, CpuSet cpus, Settings settings) {
    this.kit = kit;
    this.cpus = cpus;
    this.settings = settings;
  }

  AffinityKit kit() {
    return kit;
  }

  CpuSet cpus() {
    return cpus;
  }

  Settings settings() {
    return settings;
  }

  /**
   * A sampler of {@code cpus} through {@code kit}: a 1 s window, a 1 µs floor, a 10 µs threshold,
   * the 10 longest gaps kept, at most 16 re-reads of the counters, counters and audit read from
   * {@code /}.
   *
   * @param kit the kit whose reservations and backend pin the sampling threads; not null
   * @param cpus the CPUs to sample, one thread each; not empty, each one the kit's host can reach
   * @return the sampler; nothing runs until {@link #run()}
   * @throws IllegalArgumentException if {@code cpus} is empty
   */
  public static JitterSampler on(AffinityKit kit, CpuSet cpus) {
    Objects.requireNonNull(kit, "kit");
    if (cpus.isEmpty()) {
      throw new IllegalArgumentException("cpus: empty (expected: at least one CPU)");
    }
    Settings s =
        new Settings(
            Duration.ofSeconds(1),
            DEFAULT_FLOOR.toNanos(),
            DEFAULT_THRESHOLD.toNanos(),
            10,
            16,
            Path.of("/"),
            true,
            UnaryOperator.identity());
    return new JitterSampler(kit, cpus, s);
  }

  /**
   * Sets how long each thread samples.
   *
   * @param window from 1 ms to 24 h
   * @return a sampler with that window
   * @throws IllegalArgumentException for another window
   */
  public JitterSampler window(Duration window) {
    Objects.requireNonNull(window, "window");
    if (window.compareTo(Duration.ofMillis(1)) < 0 || window.compareTo(MAX_WINDOW) > 0) {
      throw new IllegalArgumentException("window: " + window + " (expected: 1 ms to 24 h)");
    }
    return with(settings.window(window));
  }

  private JitterSampler with(Settings s) {
    return new JitterSampler(kit, cpus, s);
  }

  /**
   * Sets the floor: the shortest gap counted, the first bucket's lower end; at or above the
   * threshold's current value it also raises the threshold to itself.
   *
   * @param floor from 100 ns to 1 ms
   * @return a sampler with that floor
   * @throws IllegalArgumentException for another floor
   */
  public JitterSampler floor(Duration floor) {
    Objects.requireNonNull(floor, "floor");
    if (floor.compareTo(Duration.ofNanos(MIN_FLOOR_NS)) < 0
        || floor.compareTo(Duration.ofNanos(MAX_FLOOR_NS)) > 0) {
      throw new IllegalArgumentException("floor: " + floor + " (expected: 100 ns to 1 ms)");
    }
    return with(settings.floor(floor.toNanos()));
  }

  /**
   * Sets the threshold: the length from which a gap is logged, makes the counters be read again, is
   * attributed and is sent to Flight Recorder.
   *
   * @param threshold from the floor to 24 h
   * @return a sampler with that threshold
   * @throws IllegalArgumentException for another threshold
   */
  public JitterSampler threshold(Duration threshold) {
    Objects.requireNonNull(threshold, "threshold");
    long floorNs = settings.floorNs();
    if (threshold.compareTo(Duration.ofNanos(floorNs)) < 0 || threshold.compareTo(MAX_WINDOW) > 0) {
      throw new IllegalArgumentException(
          "threshold: " + threshold + " (expected: the floor, " + floorNs + " ns, to 24 h)");
    }
    return with(settings.threshold(threshold.toNanos()));
  }

  /**
   * Sets how many of the longest gaps each CPU's result keeps.
   *
   * @param largest from 1 to 1000
   * @return a sampler keeping that many
   * @throws IllegalArgumentException for another count
   */
  public JitterSampler largest(int largest) {
    if (largest < 1 || largest > MAX_LARGEST) {
      throw new IllegalArgumentException("largest: " + largest + " (expected: 1 to 1000)");
    }
    return with(settings.largest(largest));
  }

  /**
   * Sets how many times a window the counters are read again after a gap over the threshold, spread
   * over the window (no sooner than {@code window / (rereads + 1)} after the last reading): more
   * give tighter brackets around the gaps, each costs a reading of four kernel files.
   *
   * @param rereads from 0 (start and end only) to 1000
   * @return a sampler with that bound
   * @throws IllegalArgumentException for another count
   */
  public JitterSampler rereads(int rereads) {
    if (rereads < 0 || rereads > MAX_REREADS) {
      throw new IllegalArgumentException("rereads: " + rereads + " (expected: 0 to 1000)");
    }
    return with(settings.rereads(rereads));
  }

  /**
   * Sets where the kernel's files are read: {@code /} (the default) or a tree that holds a host's
   * {@code proc/} (a fixture in tests).
   *
   * @param root the directory holding {@code proc/}; not null
   * @return a sampler reading there
   */
  public JitterSampler root(Path root) {
    return with(settings.root(Objects.requireNonNull(root, "root")));
  }

  /**
   * Sets whether affinity-audit's audit watches the same CPUs over the window (the default).
   *
   * @param audit false to read the counters only
   * @return a sampler with that choice
   */
  public JitterSampler audit(boolean audit) {
    return with(settings.audit(audit));
  }

  /**
   * Sets how the sampling threads' group is built beyond its CPUs, which the sampler sets first
   * ({@code kit.group("jitter").cpus(...)}): {@code b -> b.isolate(true)} for CPUs isolated at
   * runtime while they are sampled, {@code b -> b.unpinned("unpinned arm")} for threads the
   * scheduler places (their gaps are no one CPU's, and are not attributed). It must not change the
   * CPUs.
   *
   * @param group applied to the builder, returns it; not null
   * @return a sampler building its group so
   */
  public JitterSampler group(UnaryOperator<CpuGroupBuilder> group) {
    return with(settings.group(Objects.requireNonNull(group, "group")));
  }

  /**
   * Pins one sampling thread to each CPU, samples for the window, and returns what they saw. Blocks
   * for the window plus the readings' time; the threads' leases and the group's seats are closed
   * before it returns.
   *
   * @return one result per CPU, ascending
   * @throws IllegalArgumentException if a CPU is not one the kit's host can reach
   * @throws IllegalStateException if the sampling threads did not start within 30 s, or were
   *     interrupted
   */
  public JitterReport run() {
    return new SamplingRun(this).run();
  }

  @Override
  public String toString() {
    return "JitterSampler[cpus="
        + cpus
        + ", window="
        + settings.window()
        + ", floor="
        + settings.floorNs()
        + " ns, threshold="
        + settings.thresholdNs()
        + " ns]";
  }
}
