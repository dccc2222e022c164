package io.github.affinitykit.bench;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.latency.HandoffEcho;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Round-trip latency of a cache line between two spinning threads, by where they sit: SMT siblings
 * of one core, two cores of one package, two packages; or unpinned. One-way latency is half the
 * score. A relation the host does not have (no SMT here, one socket) fails its setup with the
 * reason instead of measuring something else. The far end is affinity-latency's {@link
 * HandoffEcho}, as in its latency matrix. Run: {@code java -jar benchmarks.jar PingPong}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class PingPongBenchmark {
  /** Where the two threads sit. */
  @Param({"UNPINNED", "SAME_CORE", "DIFFERENT_CORE", "DIFFERENT_SOCKET"})
  public String placement;

  /** The responder's thread, tagged for the thread-stats profiler. */
  private static final ThreadFactory RESPONDER =
      r ->
          new Thread(
              () -> {
                ThreadRoles.tag("responder");
                r.run();
                ThreadRoles.finish();
              },
              "responder");

  private AffinityBackend backend;
  private CpuSet before;
  private HandoffEcho responder;
  private long value;

  /** Pins this thread and starts the responder on the chosen pair. */
  @Setup(Level.Trial)
  public void setUp() {
    HostCpus host = HostCpus.probe();
    backend = AffinityBackend.detect();
    ThreadRoles.tag("producer");
    if (placement.equals("UNPINNED") || !backend.isSupported()) {
      responder = HandoffEcho.start(backend, -1, RESPONDER);
      return;
    }
    int[] pair = CpuPairs.pick(host.topology(), host.reachable(), placement);
    before = backend.getAffinity(0);
    backend.setAffinity(0, CpuSet.of(pair[0]));
    responder = HandoffEcho.start(backend, pair[1], RESPONDER);
  }

  /** One round trip. */
  @Benchmark
  public long roundTrip() {
    return responder.roundTrip(++value) ? value : -1;
  }

  /** Stops the responder and restores this thread's mask. */
  @TearDown(Level.Trial)
  public void tearDown() {
    responder.close();
    if (before != null) {
      backend.setAffinity(0, before);
    }
  }
}
