package io.github.affinitykit.core.cli;

import io.github.affinitykit.core.cpu.CpuSet;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What {@code affinity-kit jitter} found: the same CPUs, under the same noise, sampled in each arm,
 * and OpenHFT's MicroJitterSampler as the anchor.
 *
 * <p>Thread safety: immutable.
 *
 * @param cpus the CPUs sampled in every arm
 * @param window each kit arm's window
 * @param floorNs the shortest gap counted, ns (MicroJitterSampler's first threshold, 2 µs)
 * @param noise the noise the command ran beside every arm, in a sentence
 * @param arms the arms in the order run, the anchor last
 */
record JitterRun(CpuSet cpus, Duration window, long floorNs, String noise, List<ArmResult> arms) {
  JitterRun {
    Objects.requireNonNull(cpus, "cpus");
    Objects.requireNonNull(window, "window");
    Objects.requireNonNull(noise, "noise");
    arms = List.copyOf(arms);
  }
}
