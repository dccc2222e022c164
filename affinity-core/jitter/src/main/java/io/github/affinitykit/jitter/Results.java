package io.github.affinitykit.jitter;

import io.github.affinitykit.audit.CpuAudit;
import io.github.affinitykit.audit.CpuVerdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Builds one CPU's {@link CpuJitter} from what its sampling thread recorded and the counters'
 * readings: each gap kept is given its wall-clock start and its attribution.
 *
 * <p>Thread safety: used by one thread, after the sampling thread was joined.
 */
final class Results {
  private final Spinner spinner;
  private final List<Counters.Reading> readings;
  private final Instant wall;
  private final long startNanos;

  Results(Spinner spinner, List<Counters.Reading> readings, Instant wall, long startNanos) {
    this.spinner = spinner;
    this.readings = List.copyOf(readings);
    this.wall = wall;
    this.startNanos = startNanos;
  }

  CpuJitter cpu(int cpu, Binding binding, Optional<CpuAudit> audit) {
    int on = binding.pinned() ? binding.cpu() : -1;
    List<Gap> largest = new ArrayList<>();
    for (int i = 0; i < spinner.top(); i++) {
      largest.add(gap(on, spinner.topStart(i), spinner.topDuration(i)));
    }
    largest.sort(
        Comparator.comparingLong(Gap::durationNs).reversed().thenComparingLong(Gap::startNanos));
    List<Gap> over = new ArrayList<>();
    for (int i = 0; i < spinner.logged(); i++) {
      over.add(gap(on, spinner.logStart(i), spinner.logDuration(i)));
    }
    Counters.Reading first = readings.get(0);
    Counters.Reading last = readings.get(readings.size() - 1);
    List<CounterMove> window =
        on < 0 || readings.size() < 2 ? List.of() : Counters.moves(first, last, on, first, last);
    Optional<CpuVerdict> verdict =
        audit.flatMap(a -> a.verdicts().stream().filter(v -> v.cpu() == cpu).findFirst());
    return new CpuJitter(
        cpu,
        binding.status(),
        binding.reason(),
        spinner.lastNanos() - spinner.firstNanos(),
        spinner.samples(),
        spinner.histogram(),
        spinner.lostNs(),
        largest,
        over,
        spinner.dropped(),
        window,
        verdict);
  }

  private Gap gap(int cpu, long start, long durationNs) {
    Attribution a =
        cpu < 0 ? Attribution.NOT_COUNTED : Counters.attribute(readings, cpu, start, durationNs);
    return new Gap(cpu, start, wall.plusNanos(start - startNanos), durationNs, a);
  }
}
