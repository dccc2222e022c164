package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.core.WaitAdvice;
import io.github.affinitykit.disruptor.WaitChoice;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Formats results as a Markdown table (so a run can be pasted into the README as it is), plus the
 * placement behind each chosen strategy.
 *
 * <p>Thread safety: stateless.
 */
final class ResultTable {
  private ResultTable() {}

  static String header() {
    return "| shape | pinning | strategy | cpus P/C | Mev/s | p50 µs | p99 µs | p99.9 µs"
        + " | cons. vcs/s | cons. ics/s | cores busy | cores idle | others | check |\n"
        + "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|";
  }

  static String row(Result r) {
    Scenario s = r.scenario();
    WaitChoice c = r.choice();
    String strategy =
        s.strategy().isPresent()
            ? name(c.strategy().name())
            : "chosen: " + name(c.strategy().name());
    Measured m = r.measured();
    return String.format(
        Locale.ROOT,
        "| %s | %s | %s | %s | %.2f | %s | %s | %s | %,.0f | %,.0f | %.2f | %.2f | %.2f | %s |",
        s.shape(),
        name(s.pinning().name()),
        strategy,
        cpus(c),
        m.eventsPerSecond() / 1e6,
        Latency.us(m.latency().p50Us()),
        Latency.us(m.latency().p99Us()),
        Latency.us(m.latency().p999Us()),
        m.switches().voluntaryPerSecond(),
        m.switches().involuntaryPerSecond(),
        m.coresBurst(),
        m.coresCalm(),
        m.othersCores(),
        m.check(""));
  }

  /** One line per distinct placement that chose a strategy: the choice, its reason, each thread. */
  static String choices(List<Result> results) {
    Map<String, WaitChoice> seen = new LinkedHashMap<>();
    for (Result r : results) {
      if (r.scenario().strategy().isEmpty()) {
        Scenario s = r.scenario();
        seen.putIfAbsent(s.shape() + " pinning " + name(s.pinning().name()), r.choice());
      }
    }
    StringBuilder sb = new StringBuilder();
    seen.forEach(
        (k, c) -> sb.append("- ").append(k).append(": ").append(c.describe().strip()).append('\n'));
    return sb.toString();
  }

  private static String cpus(WaitChoice c) {
    String consumers =
        c.consumers().stream().map(ResultTable::cpu).collect(Collectors.joining(","));
    return cpu(c.producer()) + "/" + consumers;
  }

  private static String cpu(WaitAdvice t) {
    return t.cpu() < 0 ? "*" : String.valueOf(t.cpu());
  }

  private static String name(String constant) {
    return constant.toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
