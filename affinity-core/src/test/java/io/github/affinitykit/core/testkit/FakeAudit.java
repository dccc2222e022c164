package io.github.affinitykit.core.testkit;

import io.github.affinitykit.core.ExclusivityAudit;
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
    Duration window, Map<Integer, FakeAudit.Verdict> verdicts, Map<Integer, String> details)
    implements ExclusivityAudit {
  /** A CPU's verdict, as an audit names it. */
  public enum Verdict {
    /** Nothing else ran or may run there. */
    EXCLUSIVE,
    /** Something else ran or may run there. */
    INTRUDED,
    /** The audit could not tell. */
    UNKNOWN
  }

  /** Copies. */
  public FakeAudit {
    verdicts = new TreeMap<>(verdicts);
    details = new TreeMap<>(details);
  }

  /** {@return an audit of one CPU} */
  public static FakeAudit of(Duration window, int cpu, Verdict verdict, String detail) {
    return new FakeAudit(window, Map.of(cpu, verdict), Map.of(cpu, detail));
  }

  @Override
  public CpuSet audited() {
    return CpuSet.of(verdicts.keySet().stream().mapToInt(Integer::intValue).toArray());
  }

  @Override
  public CpuSet exclusive() {
    return only(Verdict.EXCLUSIVE);
  }

  @Override
  public CpuSet intruded() {
    return only(Verdict.INTRUDED);
  }

  private CpuSet only(Verdict kind) {
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
