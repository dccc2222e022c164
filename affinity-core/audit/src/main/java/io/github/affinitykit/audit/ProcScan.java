package io.github.affinitykit.audit;

import io.github.affinitykit.core.internal.SysFs;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One pass over every task of every process visible in {@code /proc} under a root: the raw material
 * of {@link CpuAudit}. Tasks that exit during the pass are skipped.
 *
 * <p>Thread safety: immutable once built.
 */
final class ProcScan {
  private final long nanoTime;
  private final Map<Integer, TaskSample> byTid;

  private ProcScan(long nanoTime, Map<Integer, TaskSample> byTid) {
    this.nanoTime = nanoTime;
    this.byTid = Collections.unmodifiableMap(byTid);
  }

  /** Builds a scan from samples (tests, and callers that already hold samples). */
  static ProcScan of(long nanoTime, List<TaskSample> tasks) {
    Map<Integer, TaskSample> m = new TreeMap<>();
    tasks.forEach(t -> m.put(t.tid(), t));
    return new ProcScan(nanoTime, m);
  }

  /** Reads every task under {@code fs}'s {@code /proc}. */
  static ProcScan read(SysFs fs) {
    long now = System.nanoTime();
    TaskReader reader = new TaskReader(fs);
    List<TaskSample> tasks = new ArrayList<>();
    for (int pid : reader.processIds()) {
      for (int tid : reader.threadIds(pid)) {
        reader.read(pid, tid).ifPresent(tasks::add);
      }
    }
    return of(now, tasks);
  }

  long nanoTime() {
    return nanoTime;
  }

  Map<Integer, TaskSample> tasks() {
    return byTid;
  }

  boolean isEmpty() {
    return byTid.isEmpty();
  }
}
