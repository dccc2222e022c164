package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.disruptor.Pinning;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Formats {@code compare-queues} results: a Markdown table (pasteable into the README), the
 * Disruptor-pinned ÷ best-queue ratio per shape beside the LMAX figure, and where each thread ran.
 *
 * <p>Thread safety: stateless.
 */
final class CompareTable {
  /** LMAX Disruptor perf tests, 1P→1C unicast: Disruptor 4 vs ArrayBlockingQueue, ops/s. */
  static final String LMAX =
      "LMAX (Disruptor 4 perf tests, 1P→1C unicast, EPYC 9374F): 160.4M ÷ 20.9M ops/s"
          + " (ArrayBlockingQueue) = 7.7×";

  private CompareTable() {}

  static String header() {
    return "| shape | pinning | contender | cpus P/C | ran on P/C | Mev/s | p50 µs | p99 µs"
        + " | cons. vcs/s | cons. ics/s | cores burst | cores paced | others | check |\n"
        + "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|";
  }

  static String row(Comparison r) {
    Measured m = r.measured();
    return String.format(
        Locale.ROOT,
        "| %s | %s | %s | %s | %s | %.2f | %s | %s | %,.0f | %,.0f | %.2f | %.2f | %.2f | %s |",
        r.shape(),
        r.pinning().name().toLowerCase(Locale.ROOT),
        r.contender().label(),
        r.cpus(),
        r.ranOn(),
        m.eventsPerSecond() / 1e6,
        Latency.us(m.latency().p50Us()),
        Latency.us(m.latency().p99Us()),
        m.switches().voluntaryPerSecond(),
        m.switches().involuntaryPerSecond(),
        m.coresBurst(),
        m.coresCalm(),
        m.othersCores(),
        r.check());
  }

  /** Returns what each contender is and how 1P→3C is wired, before the table. */
  static String legend(List<Contender> contenders) {
    StringBuilder sb = new StringBuilder();
    contenders.forEach(
        c -> sb.append("- ").append(c.label()).append(": ").append(c.description()).append('\n'));
    sb.append(
        "- 1P→3C: every consumer sees every event. Queues: one queue per consumer, the producer"
            + " puts each event into all three (what people write); Disruptor: one ring, three"
            + " handlers each wired with handleEventsWith (multicast). Queues carry a new Message"
            + " per event; the Disruptor reuses its slots.\n");
    return sb.toString();
  }

  /**
   * Returns, per shape, the best pinned Disruptor row against the best queue row (any pinning),
   * their ratio, and the LMAX figure beside it.
   */
  static String ratios(List<Comparison> results) {
    StringBuilder sb = new StringBuilder();
    for (int shape : results.stream().mapToInt(Comparison::consumers).distinct().toArray()) {
      Optional<Comparison> d =
          best(
              results,
              r -> r.consumers() == shape && isDisruptor(r) && r.pinning() != Pinning.UNPINNED);
      Optional<Comparison> q = best(results, r -> r.consumers() == shape && !isDisruptor(r));
      if (d.isPresent() && q.isPresent()) {
        sb.append(
            String.format(
                Locale.ROOT,
                "- 1P→%dC: Disruptor pinned (%s, %s) %.2f Mev/s ÷ best queue (%s, %s) %.2f Mev/s"
                    + " = %.2f×%n",
                shape,
                d.get().contender().label(),
                d.get().pinning().name().toLowerCase(Locale.ROOT),
                eventsPerSecond(d.get()) / 1e6,
                q.get().contender().label(),
                q.get().pinning().name().toLowerCase(Locale.ROOT),
                eventsPerSecond(q.get()) / 1e6,
                eventsPerSecond(d.get()) / eventsPerSecond(q.get())));
      }
    }
    return sb.append("- ").append(LMAX).append('\n').toString();
  }

  /** Returns where each thread ran, once per shape × pinning × kind (Disruptor or queue). */
  static String placements(List<Comparison> results) {
    Map<String, List<String>> seen = new LinkedHashMap<>();
    for (Comparison r : results) {
      if (r.pinning() != Pinning.UNPINNED) {
        String kind = isDisruptor(r) ? "disruptor" : "queues";
        String key = r.shape() + " pinning " + r.pinning().name().toLowerCase(Locale.ROOT);
        seen.putIfAbsent(key + ", " + kind, r.assignments());
      }
    }
    StringBuilder sb = new StringBuilder();
    seen.forEach(
        (k, lines) -> {
          sb.append("- ").append(k).append(":\n");
          lines.forEach(l -> sb.append("  - ").append(l).append('\n'));
        });
    return sb.toString();
  }

  private static Optional<Comparison> best(List<Comparison> rs, Predicate<Comparison> which) {
    return rs.stream()
        .filter(which)
        .filter(Comparison::ok)
        .max(Comparator.comparingDouble(CompareTable::eventsPerSecond));
  }

  private static boolean isDisruptor(Comparison r) {
    return r.contender().waitKind().isPresent();
  }

  private static double eventsPerSecond(Comparison r) {
    return r.measured().eventsPerSecond();
  }
}
