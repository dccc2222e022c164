package io.github.affinitykit.core.cli;

import io.github.affinitykit.audit.Confinement;
import io.github.affinitykit.audit.JvmThreads;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.jitter.JitterReport;
import io.github.affinitykit.jitter.JitterSampler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Seed 000's experiment in time: the same CPUs, under the same noise ({@link Noise}), sampled by
 * the kit's {@link JitterSampler} in four arms, then by OpenHFT's MicroJitterSampler as the anchor
 * ({@link MicroJitterAnchor}):
 *
 * <ul>
 *   <li>{@code unpinned}: the sampling threads where the scheduler puts them;
 *   <li>{@code pinned}: each pinned to its CPU by the kit, the noise free to run there too;
 *   <li>{@code exclusive}: pinned, and the rest of this JVM (the noise included) confined to the
 *       other CPUs and swept every 100 ms ({@link JvmThreads#confineUntilClosed(Duration)}): the
 *       JVM-level exclusivity the audit then judges;
 *   <li>{@code isolated}: as exclusive, the CPUs isolated at runtime for the arm ({@code
 *       isolate(true)}, affinity-isolation): only with root and {@code --isolated}, since it moves
 *       other processes, IRQs and cgroups of the whole machine.
 * </ul>
 *
 * <p>Gaps are counted from 2 µs, MicroJitterSampler's first threshold, so that every arm counts the
 * same gaps.
 *
 * <p>Thread safety: one instance per run; {@link #run} blocks for every arm.
 */
final class JitterExperiment {
  /** MicroJitterSampler's first threshold, the floor of every arm. */
  static final Duration FLOOR = Duration.ofNanos(2_000);

  private static final Duration SWEEP = Duration.ofMillis(100);

  /**
   * What to run.
   *
   * @param cpus the CPUs sampled in every arm
   * @param window each kit arm's window
   * @param noise the busy threads beside the arms
   * @param anchorRounds MicroJitterSampler's rounds after its warm-up, 0 to skip it
   * @param isolated whether the isolated arm may run (it also needs root)
   * @param audit whether the audit watches the CPUs beside the pinned arms
   * @param lockDir where the CPU locks are taken, the kit's and MicroJitterSampler's
   */
  record Plan(
      CpuSet cpus,
      Duration window,
      int noise,
      int anchorRounds,
      boolean isolated,
      boolean audit,
      Path lockDir) {
    Plan {
      Objects.requireNonNull(cpus, "cpus");
      Objects.requireNonNull(window, "window");
      Objects.requireNonNull(lockDir, "lockDir");
    }
  }

  private final AffinityKit kit;
  private final Plan plan;
  private final int uid;

  /**
   * An experiment through {@code kit}, whose pool is the plan's CPUs (the rest of the host its
   * housekeeping), as user {@code uid}.
   */
  JitterExperiment(AffinityKit kit, Plan plan, int uid) {
    this.kit = Objects.requireNonNull(kit, "kit");
    this.plan = Objects.requireNonNull(plan, "plan");
    this.uid = uid;
  }

  JitterRun run() {
    List<ArmResult> arms = new ArrayList<>();
    String described;
    try (Noise noise = new Noise(plan.noise())) {
      described = noise.description();
      arms.add(
          arm(
              "unpinned",
              "the sampling threads where the scheduler puts them (no CPU of their own)",
              sampler().audit(false).group(b -> b.unpinned("the unpinned arm"))));
      arms.add(
          arm(
              "pinned",
              "each sampling thread pinned to its CPU by the kit; the noise may run there too",
              sampler()));
      arms.add(exclusive());
      arms.add(isolated());
      arms.add(MicroJitterAnchor.run(plan.cpus(), plan.anchorRounds(), plan.lockDir()));
    }
    return new JitterRun(plan.cpus(), plan.window(), FLOOR.toNanos(), described, arms);
  }

  private JitterSampler sampler() {
    return JitterSampler.on(kit, plan.cpus())
        .window(plan.window())
        .floor(FLOOR)
        .largest(5)
        .audit(plan.audit());
  }

  private static ArmResult arm(String name, String setup, JitterSampler sampler) {
    JitterReport r = sampler.run();
    return ArmResult.ran(name, setup, r.cpus().stream().map(ArmRow::of).toList(), r.notes());
  }

  private ArmResult exclusive() {
    String setup =
        "pinned, and the rest of this JVM (the noise included) confined to "
            + kit.pool().housekeeping()
            + ", swept every "
            + SWEEP.toMillis()
            + " ms";
    if (kit.pool().housekeeping().isEmpty()) {
      return ArmResult.refused(
          "exclusive", setup, "refused: no CPU left for the rest of the JVM (sample fewer CPUs)");
    }
    return confined("exclusive", setup, sampler());
  }

  private ArmResult isolated() {
    String setup =
        "as exclusive, the CPUs isolated at runtime for the arm (affinity-isolation: other"
            + " processes, IRQs and cgroups of the whole machine moved off them, put back after)";
    Optional<String> refused = isolatedRefusal(plan.isolated(), uid);
    if (refused.isPresent()) {
      return ArmResult.refused("isolated", setup, refused.get());
    }
    if (kit.pool().housekeeping().isEmpty()) {
      return ArmResult.refused(
          "isolated", setup, "refused: no CPU left for the rest of the machine");
    }
    return confined("isolated", setup, sampler().group(b -> b.isolate(true)));
  }

  private ArmResult confined(String name, String setup, JitterSampler sampler) {
    try (Confinement c = JvmThreads.of(kit).confineUntilClosed(SWEEP)) {
      ArmResult r = arm(name, setup, sampler);
      int failed = c.lastReport().failed().size();
      if (failed == 0) {
        return r;
      }
      List<String> notes = new ArrayList<>(r.notes());
      notes.add("confinement: " + failed + " threads of this JVM could not be moved");
      return ArmResult.ran(name, setup, r.rows(), notes);
    }
  }

  /**
   * Why the isolated arm may not run: without {@code --isolated}, or without root; empty when it
   * may.
   */
  static Optional<String> isolatedRefusal(boolean flag, int uid) {
    if (!flag) {
      return Optional.of(
          "not run: needs --isolated (it changes the whole machine for the arm) and root");
    }
    if (uid != 0) {
      return Optional.of("refused: needs root (effective uid " + (uid < 0 ? "unknown" : uid) + ")");
    }
    return Optional.empty();
  }

  /** This process's effective uid from {@code /proc/self/status}; -1 if it cannot be read. */
  static int effectiveUid() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Uid:")) {
          String[] ids = line.substring(4).strip().split("\\s+");
          return ids.length > 1 ? Integer.parseInt(ids[1]) : -1;
        }
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }
}
