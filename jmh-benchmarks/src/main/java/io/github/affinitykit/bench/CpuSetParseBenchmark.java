package io.github.affinitykit.bench;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of parsing a kernel cpu list (cold path: done once per probe, here to keep it honest).
 *
 * <p>Run: {@code java -jar jmh-benchmarks/target/benchmarks.jar CpuSetParseBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class CpuSetParseBenchmark {
  /** Lists as sysfs prints them, from a laptop to a 2-socket server to a sparse 1k-CPU box. */
  @Param({"0-3", "0-5,12-17", "0-1023:2/4,2048"})
  public String list;

  /** Parses {@link #list}. */
  @Benchmark
  public CpuSet parse() {
    return CpuSet.parse(list);
  }
}
