package io.github.affinitykit.bench;

import io.github.affinitykit.audit.Pressure;
import io.github.affinitykit.audit.TaskSample;
import io.github.affinitykit.audit.ThreadStats;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler ({@code -prof io.github.affinitykit.bench.ThreadStatsProfiler}) for what JMH does
 * not measure and {@code perfnorm} needs hardware counters for: per iteration, the benchmark JVM's
 * CPU time, voluntary and involuntary context switches and migrations per operation, the same per
 * role (threads tag themselves with {@link ThreadRoles}), process CPU%, and the CPU pressure (PSI
 * {@code some} stall) the machine was under, so a contended run is visible in the results.
 *
 * <p>Counters come from {@code /proc/self/task/*}; threads that end during an iteration count with
 * the last values they recorded through {@link ThreadRoles#finish()}.
 *
 * <p>Thread safety: JMH calls it from one thread.
 */
public final class ThreadStatsProfiler implements InternalProfiler {
  private static final String P = "·";
  private ThreadStats before;
  private long psiBeforeUs;

  /** Creates the profiler (JMH instantiates it). */
  public ThreadStatsProfiler() {
    // no options
  }

  @Override
  public String getDescription() {
    return "CPU time, context switches and migrations per op and per thread role, from /proc";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
    psiBeforeUs = psiSomeTotalUs();
    ThreadRoles.clearDeparted();
    before = ThreadStats.snapshot();
  }

  @Override
  public Collection<ScalarResult> afterIteration(
      BenchmarkParams benchmark, IterationParams iteration, IterationResult result) {
    ThreadStats after = ThreadStats.snapshot();
    long psiUs = psiSomeTotalUs() - psiBeforeUs;
    long ops = Math.max(1, result.getMetadata().getAllOps());
    Map<String, long[]> byRole = new TreeMap<>(); // cpuNs, vol, invol, migrations
    long[] total = new long[4];
    for (TaskSample d : deltas(after)) {
      long[] r = byRole.computeIfAbsent(ThreadRoles.roleOf(d), k -> new long[4]);
      long[] v = {d.cpuNs(), d.voluntarySwitches(), d.involuntarySwitches(), d.migrations()};
      for (int i = 0; i < 4; i++) {
        r[i] += Math.max(0, v[i]);
        total[i] += Math.max(0, v[i]);
      }
    }
    List<ScalarResult> out = new ArrayList<>();
    out.add(
        avg(P + "cpu.ms/op", (after.processCpuNs() - before.processCpuNs()) / 1e6 / ops, "ms/op"));
    out.add(avg(P + "cpu%", after.cpuPercentSince(before), "%"));
    out.add(avg(P + "cs.vol/op", (double) total[1] / ops, "#/op"));
    out.add(avg(P + "cs.invol/op", (double) total[2] / ops, "#/op"));
    out.add(avg(P + "migr/op", (double) total[3] / ops, "#/op"));
    byRole.forEach(
        (role, r) -> {
          out.add(avg(P + role + ".cpu.ms/op", r[0] / 1e6 / ops, "ms/op"));
          out.add(avg(P + role + ".cs/op", (double) (r[1] + r[2]) / ops, "#/op"));
        });
    out.add(avg(P + "psi.some.ms", psiUs / 1e3, "ms"));
    return out;
  }

  /**
   * Per-thread deltas over the iteration. Threads that ended during it count through the last
   * record they left with {@link ThreadRoles#finish()}: from the first snapshot if they were in it,
   * else from birth (a thread started in {@code @Setup} and stopped in {@code @TearDown}).
   */
  private List<TaskSample> deltas(ThreadStats after) {
    List<TaskSample> out = new ArrayList<>(after.since(before));
    ThreadRoles.departed()
        .forEach(
            (tid, last) -> {
              if (after.thread(tid).isEmpty()) {
                out.add(before.thread(tid).map(last::minus).orElse(last));
              }
            });
    return out;
  }

  private static ScalarResult avg(String label, double value, String unit) {
    return new ScalarResult(label, value, unit, AggregationPolicy.AVG);
  }

  /** Returns {@code some total=} of {@code /proc/pressure/cpu} in µs; 0 where PSI is absent. */
  public static long psiSomeTotalUs() {
    return Pressure.cpu().map(p -> p.some().totalUs()).orElse(0L);
  }
}
