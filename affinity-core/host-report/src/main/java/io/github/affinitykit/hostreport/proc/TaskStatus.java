package io.github.affinitykit.hostreport.proc;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuSetFormatException;
import io.github.affinitykit.core.internal.ProcNumbers;
import java.util.List;
import java.util.Optional;

/**
 * The lines of a {@code /proc/<pid>/task/<tid>/status} (or {@code /proc/thread-self/status}) file
 * that Affinity Kit uses. Absent or garbled counters read {@code -1}; the allowed list is kept as
 * text, for the caller to decide how strict to be.
 *
 * <p>Thread safety: immutable.
 *
 * @param voluntary {@code voluntary_ctxt_switches}, -1 if unknown
 * @param involuntary {@code nonvoluntary_ctxt_switches}, -1 if unknown
 * @param allowedList the text of {@code Cpus_allowed_list}, if present
 */
public record TaskStatus(long voluntary, long involuntary, Optional<String> allowedList) {
  private static final String VOLUNTARY = "voluntary_ctxt_switches:";
  private static final String INVOLUNTARY = "nonvoluntary_ctxt_switches:";
  private static final String ALLOWED = "Cpus_allowed_list:";

  /** Parses the lines of a status file; an empty list gives an all-unknown status. */
  public static TaskStatus parse(List<String> lines) {
    long voluntary = -1;
    long involuntary = -1;
    Optional<String> allowed = Optional.empty();
    for (String line : lines) {
      if (line.startsWith(VOLUNTARY)) {
        voluntary = ProcNumbers.counter(line.substring(VOLUNTARY.length()).trim());
      } else if (line.startsWith(INVOLUNTARY)) {
        involuntary = ProcNumbers.counter(line.substring(INVOLUNTARY.length()).trim());
      } else if (line.startsWith(ALLOWED) && allowed.isEmpty()) {
        allowed = Optional.of(line.substring(ALLOWED.length()).trim());
      }
    }
    return new TaskStatus(voluntary, involuntary, allowed);
  }

  /** The allowed list parsed, or empty if absent or malformed. */
  public CpuSet allowedOrEmpty() {
    try {
      return allowedList.map(CpuSet::parse).orElse(CpuSet.empty());
    } catch (CpuSetFormatException e) {
      return CpuSet.empty();
    }
  }
}
