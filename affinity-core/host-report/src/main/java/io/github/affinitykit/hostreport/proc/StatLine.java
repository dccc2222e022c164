package io.github.affinitykit.hostreport.proc;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.ProcNumbers;
import java.util.Optional;

/**
 * The fields of a {@code /proc/<pid>/stat} or {@code /proc/<pid>/task/<tid>/stat} line that
 * Affinity Kit uses. {@code comm} may hold spaces and parentheses, so fields are counted after the
 * <em>last</em> {@code ')'}.
 *
 * <p>Thread safety: immutable.
 *
 * @param name the thread's {@code comm}
 * @param state the one-letter state (field 3)
 * @param flags the {@code PF_*} flags (field 9)
 * @param userNs user CPU time (field 14), ns
 * @param systemNs system CPU time (field 15), ns
 * @param lastCpu the CPU it last ran on (field 39)
 */
public record StatLine(
    String name, char state, long flags, long userNs, long systemNs, int lastCpu) {
  /** USER_HZ: the unit of the tick counters of {@code stat} files on every Linux ABI but Alpha. */
  public static final long NS_PER_TICK = 10_000_000L;

  /** Fields after the name: field n is at index n - 3; field 39 is the last one read. */
  private static final int FIELDS = 39 - 2;

  /** Parses a stat line; empty if it is not one (truncated, garbled, a counter out of range). */
  public static Optional<StatLine> parse(String s) {
    int open = s.indexOf('(');
    int close = s.lastIndexOf(')');
    if (open < 0 || close < open || close + 2 >= s.length() || s.charAt(close + 1) != ' ') {
      return Optional.empty();
    }
    String[] f = s.substring(close + 2).split(" ", FIELDS + 1);
    if (f.length < FIELDS || f[0].length() != 1) {
      return Optional.empty();
    }
    long flags = ProcNumbers.counter(f[9 - 3]);
    long user = ticksNs(f[14 - 3]);
    long system = ticksNs(f[15 - 3]);
    long cpu = ProcNumbers.counter(f[39 - 3]);
    if (flags < 0 || user < 0 || system < 0 || cpu < 0 || cpu >= CpuSet.MAX_CPUS) {
      return Optional.empty();
    }
    return Optional.of(
        new StatLine(s.substring(open + 1, close), f[0].charAt(0), flags, user, system, (int) cpu));
  }

  /**
   * The tick counter {@code s} (of this line or of {@code /proc/stat}) in ns, or -1 if it is not a
   * counter or the product overflows.
   */
  public static long ticksNs(String s) {
    long ticks = ProcNumbers.counter(s);
    return ticks < 0 || ticks > Long.MAX_VALUE / NS_PER_TICK ? -1 : ticks * NS_PER_TICK;
  }

  /** User + system CPU time, ns; saturates at {@link Long#MAX_VALUE} (garbled input only). */
  public long cpuNs() {
    return userNs > Long.MAX_VALUE - systemNs ? Long.MAX_VALUE : userNs + systemNs;
  }
}
