package io.github.affinitykit.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * A sub-second JMH run with the profiler: one-event-at-a-time hand-offs through park/unpark, whose
 * consumer thread is stopped in {@code @TearDown}, so its counters must come from its last record.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(120)
class ThreadStatsProfilerIT {
  @Test
  void shouldReportCpuAndSwitchesPerRoleIncludingAThreadStoppedInTearDown() throws Exception {
    Options opts =
        new OptionsBuilder()
            .include("WakeupBenchmark.single")
            .param("mechanism", "park")
            .param("workNs", "0")
            .forks(0)
            .warmupIterations(0)
            .measurementIterations(1)
            .measurementTime(TimeValue.milliseconds(300))
            .addProfiler(ThreadStatsProfiler.class)
            .shouldFailOnError(true)
            .build();

    Collection<RunResult> results = new Runner(opts).run();

    assertThat(results).hasSize(1);
    Map<String, Double> secondary = new java.util.HashMap<>();
    results
        .iterator()
        .next()
        .getAggregatedResult()
        .getSecondaryResults()
        .forEach((k, v) -> secondary.put(k, v.getScore()));
    assertThat(secondary)
        .containsKeys(
            "·cpu.ms/op", "·cpu%", "·cs.vol/op", "·cs.invol/op", "·migr/op", "·psi.some.ms");
    assertThat(secondary).containsKeys("·producer.cpu.ms/op", "·consumer.cpu.ms/op");
    assertThat(secondary.get("·consumer.cs/op")).isGreaterThan(0);
    assertThat(secondary.get("·cpu.ms/op")).isGreaterThan(0);
  }
}
