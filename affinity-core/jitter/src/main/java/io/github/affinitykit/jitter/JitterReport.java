package io.github.affinitykit.jitter;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What a {@link JitterSampler} run found: one {@link CpuJitter} per CPU sampled.
 *
 * <p>Thread safety: immutable.
 *
 * @param window the window asked for
 * @param floorNs the shortest gap counted, ns
 * @param thresholdNs the length from which a gap is logged, attributed and sent to Flight Recorder,
 *     ns
 * @param cpus one result per CPU, ascending
 * @param readings how many times the counters were read: at the start, at the end, and after gaps
 *     over the threshold (at most the sampler's bound)
 * @param notes first, for a group asked to isolate ({@link JitterSampler#group}), its runtime
 *     isolation as it stood while sampled ({@code isolation: isolated by AFFINITY_SHIELD}, or its
 *     refusal); then what could not be read or run: a refused or garbled kernel file, an audit that
 *     failed; empty when nothing was isolated and everything was read
 */
public record JitterReport(
    Duration window,
    long floorNs,
    long thresholdNs,
    List<CpuJitter> cpus,
    int readings,
    List<String> notes) {
  /**
   * Validates and copies the lists.
   *
   * @param window the window; not null
   * @param floorNs the floor
   * @param thresholdNs the threshold
   * @param cpus the results; not null
   * @param readings the readings taken
   * @param notes the notes; not null
   */
  public JitterReport {
    Objects.requireNonNull(window, "window");
    cpus = List.copyOf(cpus);
    notes = List.copyOf(notes);
  }

  /**
   * Returns the result for {@code cpu}.
   *
   * @param cpu one of the CPUs sampled
   * @return its result
   * @throws IllegalArgumentException for a CPU not sampled
   */
  public CpuJitter cpu(int cpu) {
    return cpus.stream()
        .filter(c -> c.cpu() == cpu)
        .findFirst()
        .orElseThrow(
            () -> new IllegalArgumentException("cpu: " + cpu + " (expected: a sampled CPU)"));
  }

  /**
   * Returns one line per CPU ({@link CpuJitter#summary()}), then the notes.
   *
   * @return newline-terminated lines
   */
  public String summary() {
    return cpus.stream().map(c -> c.summary() + "\n").collect(Collectors.joining())
        + notes.stream().map(n -> "note: " + n + "\n").collect(Collectors.joining());
  }
}
