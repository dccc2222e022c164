package io.github.affinitykit.bench.wakeup;

import io.github.affinitykit.bench.ThreadRoles;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The seed's wake-up table in Java: the same events handed from a producer (the JMH thread) to a
 * consumer thread through each mechanism, with consumer work of 0 or about 500 ns per event.
 *
 * <ul>
 *   <li>{@code batch}: 100 events published back to back, then wait until all are consumed (the
 *       consumer wakes once and drains, or wakes per event: the mechanism decides);
 *   <li>{@code single}: one event in flight at a time, back to back (a ping-pong: the consumer may
 *       catch the next event before it sleeps);
 *   <li>{@code rare}: one event every {@value #RARE_GAP_NS} ns (the producer waits that long after
 *       each echo), so every consumer has reached its deepest wait (park, sleep, epoll) before the
 *       event comes: the seed's rare-event case. Subtract the gap from the score for the hand-off.
 * </ul>
 *
 * <p>The score is time per event; run with {@code -prof
 * io.github.affinitykit.bench.ThreadStatsProfiler} for the consumer's context switches per event
 * ({@code consumer.cs/op}) and CPU ({@code consumer.cpu.ms/op}): cs/s = cs/op × ops/s. {@code -p
 * pin=true} pins producer and consumer to two different CPUs. Run: {@code java -jar benchmarks.jar
 * WakeupBenchmark -prof io.github.affinitykit.bench.ThreadStatsProfiler}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class WakeupBenchmark {
  private static final int BATCH = 100;
  private static final long RARE_GAP_NS = 200_000;

  /** The mechanism. */
  @Param({
    "condvar",
    "sleep",
    "pipe",
    "socketpair",
    "eventfd",
    "executor",
    "park",
    "disruptor-blocking",
    "disruptor-sleeping",
    "disruptor-yielding",
    "disruptor-busyspin",
    "busyspin"
  })
  public String mechanism;

  /** Consumer work per event, ns. */
  @Param({"0", "500"})
  public long workNs;

  /** Pin producer and consumer to two different CPUs. */
  @Param("false")
  public boolean pin;

  private EventSink sink;
  private long target;

  /** Starts the consumer. */
  @Setup(Level.Trial)
  public void setUp() throws Exception {
    ThreadRoles.tag("producer");
    AffinityBackend backend = AffinityBackend.detect();
    CpuSet cpus = HostCpus.probe().reachable();
    ThreadFactory threads = r -> new Thread(r, "consumer");
    if (pin && backend.isSupported() && cpus.size() >= 2) {
      int consumerCpu = cpus.last();
      backend.setAffinity(0, CpuSet.of(cpus.first()));
      threads =
          r ->
              new Thread(
                  () -> {
                    backend.setAffinity(0, CpuSet.of(consumerCpu));
                    r.run();
                  },
                  "consumer");
    }
    if (mechanism.startsWith("disruptor-")) {
      sink = new DisruptorSink(mechanism.substring("disruptor-".length()), workNs, threads);
    } else if (mechanism.equals("executor")) {
      sink = new ExecutorSink(workNs, threads);
    } else {
      sink = new SignalSink(Signals.of(mechanism), workNs, threads);
    }
  }

  /** 100 events back to back, then wait for all of them. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public long batch() throws Exception {
    for (int i = 0; i < BATCH; i++) {
      sink.publish();
    }
    target += BATCH;
    return awaitConsumed();
  }

  /** One event, waited for: every event is a wake-up. */
  @Benchmark
  public long single() throws Exception {
    sink.publish();
    target++;
    return awaitConsumed();
  }

  /** One event after a quiet gap of {@value #RARE_GAP_NS} ns: the consumer has gone to sleep. */
  @Benchmark
  public long rare() throws Exception {
    long until = System.nanoTime() + RARE_GAP_NS;
    while (System.nanoTime() < until) {
      Thread.onSpinWait();
    }
    sink.publish();
    target++;
    return awaitConsumed();
  }

  private long awaitConsumed() {
    long c;
    while ((c = sink.consumed()) < target) {
      Thread.onSpinWait();
    }
    return c;
  }

  /** Stops the consumer. */
  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    sink.stop();
  }
}
