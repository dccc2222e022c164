package io.github.affinitykit.bench.queues;

import io.github.affinitykit.bench.ThreadRoles;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.disruptor.Pinning;
import io.github.affinitykit.disruptor.WaitKind;
import java.nio.file.Files;
import java.util.Locale;
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
 * The Disruptor against the queues people write instead, as the LMAX perf tests ask it: events per
 * second from one producer (the JMH thread) to 1 consumer ({@code consumers=1}, the LMAX 1P→1C
 * unicast) or to 3 consumers that each see every event ({@code consumers=3}: for queues, a queue
 * per consumer and the producer putting each event into all three; for the Disruptor, one ring and
 * three handlers). An invocation publishes {@value #BATCH} events and waits (yielding) until the
 * slowest consumer has them all, so the score is end-to-end events/s.
 *
 * <ul>
 *   <li>{@code impl}: {@code abq}, {@code lbq} ({@code put}/{@code take}), {@code agrona-spin},
 *       {@code agrona-park} (Agrona {@code OneToOneConcurrentArrayQueue} with {@code
 *       BusySpinIdleStrategy} / {@code BackoffIdleStrategy}), {@code disruptor-<strategy>};
 *   <li>{@code pin}: {@code none}, {@code consumers} or {@code all} (producer too), through the
 *       library: {@code PinnedDisruptor} for the Disruptor, {@code PinnedThreadFactory} for the
 *       queue consumers, CPUs reserved in a private directory. On 2 CPUs the pool is CPU 1: every
 *       pinned consumer shares it, and {@code all} puts the producer there too.
 * </ul>
 *
 * <p>Run: {@code java -jar benchmarks.jar QueueVsDisruptor -prof
 * io.github.affinitykit.bench.ThreadStatsProfiler} ({@code consumer.cs/op} × ops/s = consumer
 * context switches/s; {@code consumer.cpu.ms/op} its CPU). About 5.5 minutes for all 48
 * configurations with the defaults below.
 *
 * <p>Thread safety: a JMH {@code Scope.Thread} state: each benchmark thread has its own pipeline;
 * JMH calls setup, benchmark and teardown from that thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class QueueVsDisruptorBenchmark {
  private static final int BATCH = 10_000;

  /** What carries the events. */
  @Param({
    "abq",
    "lbq",
    "agrona-spin",
    "agrona-park",
    "disruptor-busy-spin",
    "disruptor-yielding",
    "disruptor-sleeping",
    "disruptor-blocking"
  })
  public String impl;

  /** Consumers, each seeing every event. */
  @Param({"1", "3"})
  public int consumers;

  /** What is pinned: none, consumers, all. */
  @Param({"unpinned", "consumers", "all"})
  public String pin;

  private FanOut fanOut;
  private long next;

  /** Starts the consumers (and pins this thread for {@code pin=all}). */
  @Setup(Level.Trial)
  public void setUp() throws Exception {
    ThreadRoles.tag("producer");
    AffinityKit kit =
        AffinityKit.create(
            HostCpus.probe(),
            AffinityBackend.detect(),
            CpuReservations.inDirectory(Files.createTempDirectory("queues-bench")));
    Pinning pinning = Pinning.valueOf(pin.toUpperCase(Locale.ROOT));
    fanOut =
        impl.startsWith("disruptor-")
            ? new DisruptorFanOut(
                kit, WaitKind.parse(impl.substring("disruptor-".length())), consumers, pinning)
            : new QueueFanOut(kit, impl, consumers, pinning);
  }

  /** {@value #BATCH} events, then wait until every consumer has them all. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public long batch() throws InterruptedException {
    for (int i = 0; i < BATCH; i++) {
      fanOut.publish(next++);
    }
    long slowest;
    while ((slowest = fanOut.slowest()) < next) {
      Thread.yield(); // a consumer may share this CPU: let it run
    }
    return slowest;
  }

  /** Stops the consumers, frees the CPUs. */
  @TearDown(Level.Trial)
  public void tearDown() {
    fanOut.close();
  }
}
