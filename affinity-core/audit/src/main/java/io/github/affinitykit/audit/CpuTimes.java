package io.github.affinitykit.audit;

import io.github.affinitykit.core.internal.SysFs;
import io.github.affinitykit.hostreport.proc.StatLine;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The whole machine's CPU time by kind, from the {@code cpu} line of {@code /proc/stat}: all CPUs,
 * every process and the kernel, since boot. Two reads give what the machine did in between, e.g.
 * how much CPU other processes took beside a benchmark. Kinds an older kernel does not print read
 * 0; {@code guest} time is also counted in {@code user} (and {@code guestNice} in {@code nice}).
 *
 * <p>Thread safety: immutable; {@link #read(Path)} may be called from any thread.
 *
 * @param userNs time in user mode
 * @param niceNs time in user mode at low priority
 * @param systemNs time in kernel mode
 * @param idleNs idle time
 * @param iowaitNs idle time with I/O outstanding
 * @param irqNs time serving hardware interrupts
 * @param softirqNs time serving softirqs
 * @param stealNs time the hypervisor gave other guests
 * @param guestNs time running guests (also in {@code userNs})
 * @param guestNiceNs time running niced guests (also in {@code niceNs})
 */
public record CpuTimes(
    long userNs,
    long niceNs,
    long systemNs,
    long idleNs,
    long iowaitNs,
    long irqNs,
    long softirqNs,
    long stealNs,
    long guestNs,
    long guestNiceNs) {

  private static final int KINDS = 10;
  private static final int REQUIRED = 4; // user, nice, system, idle: every kernel prints them

  /**
   * Reads {@code /proc/stat} of this machine; empty where it is absent or garbled.
   *
   * @return the machine's CPU times since boot, in ns at 10 ms resolution, or empty
   */
  public static Optional<CpuTimes> read() {
    return read(Path.of("/"));
  }

  /**
   * Reads {@code root/proc/stat}; empty where it is absent or garbled.
   *
   * @param root the directory holding the {@code proc/} tree, {@code /} for this machine; not null
   * @return the CPU times since boot, in ns at 10 ms resolution, or empty
   */
  public static Optional<CpuTimes> read(Path root) {
    return new SysFs(Objects.requireNonNull(root, "root"))
        .read("/proc/stat")
        .flatMap(CpuTimes::parse);
  }

  /**
   * Parses the text of {@code /proc/stat}: the first line starting {@code "cpu "}, tick counters in
   * USER_HZ ({@link TaskReader#NS_PER_TICK}); empty if there is none, it has fewer than 4 counters,
   * or one is not an unsigned decimal.
   *
   * @param procStat the whole text of a {@code /proc/stat} file; not null
   * @return the times in ns, kinds beyond the counters given at 0, or empty
   */
  public static Optional<CpuTimes> parse(String procStat) {
    for (String line : procStat.split("\n")) {
      if (line.startsWith("cpu ")) {
        return parseLine(line.substring(4).trim());
      }
    }
    return Optional.empty();
  }

  private static Optional<CpuTimes> parseLine(String counters) {
    String[] f = counters.split(" +");
    if (f.length < REQUIRED) {
      return Optional.empty();
    }
    long[] ns = new long[KINDS];
    for (int i = 0; i < Math.min(KINDS, f.length); i++) {
      ns[i] = StatLine.ticksNs(f[i]);
      if (ns[i] < 0) {
        return Optional.empty();
      }
    }
    return Optional.of(
        new CpuTimes(ns[0], ns[1], ns[2], ns[3], ns[4], ns[5], ns[6], ns[7], ns[8], ns[9]));
  }

  /**
   * Returns the busy time: everything but idle and iowait (user, nice, system, irq, softirq, steal;
   * guest time is inside user and nice already).
   *
   * @return that sum in ns; for the CPU use between two reads, subtract the earlier one's
   */
  public long busyNs() {
    return userNs + niceNs + systemNs + irqNs + softirqNs + stealNs;
  }
}
