package io.github.affinitykit.core.testkit;

import io.github.affinitykit.core.ExclusivityAudit;
import io.github.affinitykit.core.WatchEvent;
import io.github.affinitykit.core.cpu.CpuSet;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * An audit's answer made by a test: each CPU's verdict and detail given, nothing watched.
 *
 * <p>Thread safety: immutable.
 *
 * @param window the window it claims
 * @param verdicts each audited CPU's verdict: {@code EXCLUSIVE}, {@code INTRUDED} or {@code
 *     UNKNOWN}
 * @param details each audited CPU's detail
 */
public record FakeAudit(
    Duration window, Map<Integer, WatchEvent.Kind> verdicts, Map<Integer, String> details)
    implements ExclusivityAudit {
  /** Copies. */
  public FakeAudit {
    verdicts = new TreeMap<>(verdicts);
    details = new TreeMap<>(details);
  }

  /** {@return an audit of one CPU} */
  public static FakeAudit of(Duration window, int cpu, WatchEvent.Kind verdict, String detail) {
    return new FakeAudit(window, Map.of(cpu, verdict), Map.of(cpu, detail));
  }

  @Override
  public CpuSet audited() {
    return CpuSet.of(verdicts.keySet().stream().mapToInt(Integer::intValue).toArray());
  }

  @Override
  public CpuSet exclusive() {
    return only(WatchEvent.Kind.EXCLUSIVE);
  }

  @Override
  public CpuSet intruded() {
    return only(WatchEvent.Kind.INTRUDED);
  }

  private CpuSet only(WatchEvent.Kind kind) {
    return CpuSet.of(
        verdicts.entrySet().stream()
            .filter(e -> e.getValue() == kind)
            .mapToInt(Map.Entry::getKey)
            .toArray());
  }

  @Override
  public String detail(int cpu) {
    return details.getOrDefault(cpu, "");
  }

  @Override
  public String summary() {
    StringBuilder sb = new StringBuilder();
    verdicts.forEach((cpu, v) -> sb.append("cpu ").append(cpu).append(": ").append(v).append('\n'));
    return sb.toString();
  }
}
