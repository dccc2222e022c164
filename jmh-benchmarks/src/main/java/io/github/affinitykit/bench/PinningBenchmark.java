package io.github.affinitykit.bench;

import io.github.affinitykit.audit.JvmThreads;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.isolation.Isolation;
import io.github.affinitykit.isolation.IsolationReport;
import java.nio.file.Files;
import java.util.Optional;
import java.util.Set;
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
 * The seed's isolcpus experiment on this JVM: a critical thread does a fixed amount of integer work
 * while one busy noise thread per reachable CPU competes.
 *
 * <ul>
 *   <li>{@code alone}: no noise (the reference time);
 *   <li>{@code unpinned}: nothing pinned;
 *   <li>{@code pinned}: the critical thread bound to one CPU, noise free to run there too (binding
 *       is a permission, not a reservation: the seed measured this 3% slower than unpinned);
 *   <li>{@code exclusive}: pinned, and the noise and the rest of the JVM confined to the other CPUs
 *       with {@link JvmThreads} (the seed: 0.656 of unpinned with isolcpus); with {@code -p
 *       isolate=true} also the rest of the machine, by runtime isolation ({@link
 *       AffinityKit#isolate}: root, and it moves other people's processes and IRQs, so never by
 *       default). Each trial prints which kind of exclusivity it measured.
 * </ul>
 *
 * <p>Expected on N CPUs with N noise threads: unpinned ≈ (N+1)/N × alone, exclusive ≈ 1 × alone.
 * Outside processes still run on the critical CPU; the profiler's {@code critical.cs/op} and {@code
 * psi} columns show how much. Run: {@code java -jar benchmarks.jar PinningBenchmark -prof
 * io.github.affinitykit.bench.ThreadStatsProfiler}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 1)
@Measurement(iterations = 5)
public class PinningBenchmark {
  /** How the critical thread and the noise are placed. */
  @Param({"alone", "unpinned", "pinned", "exclusive"})
  public String mode;

  /**
   * Whether {@code exclusive} also isolates the critical CPU from the rest of the machine at
   * runtime ({@code -p isolate=true}; off by default: it changes the whole machine).
   */
  @Param("false")
  public boolean isolate;

  /** Xorshift rounds of the critical work (about 0.3 s on a 2020s core). */
  @Param("400000000")
  public long rounds;

  private AffinityKit kit;
  private CpuLease lease;
  private NoiseThreads noise;
  private Set<Integer> moved = Set.of();
  private Optional<Isolation> isolation = Optional.empty();

  /** Pins (or not) this JMH thread and starts the noise. */
  @Setup(Level.Trial)
  public void setUp() throws Exception {
    HostCpus host = HostCpus.probe(); // before pinning anything
    CpuSet reachable = host.reachable();
    int critical = reachable.last();
    CpuSet others = reachable.minus(CpuSet.of(critical));
    kit =
        AffinityKit.create(
            host,
            AffinityBackend.detect(),
            CpuReservations.inDirectory(Files.createTempDirectory("pinning-bench")),
            host.pool(CpuSet.of(critical)));
    ThreadRoles.tag("critical");
    if (!mode.equals("unpinned") && !mode.equals("alone")) {
      lease = kit.pinCurrentThread(critical);
    }
    if (mode.equals("exclusive") && !others.isEmpty()) {
      moved =
          Set.copyOf(
              JvmThreads.of(kit).confine(others, Set.of()).moved().stream()
                  .map(e -> e.tid())
                  .toList());
    }
    if (mode.equals("exclusive") && isolate && !others.isEmpty()) {
      isolation = Optional.of(Isolation.of(kit.isolate(CpuSet.of(critical))));
    }
    if (mode.equals("exclusive")) {
      System.out.println("# exclusive measured: " + kind(critical));
    }
    int threads = mode.equals("alone") ? 0 : reachable.size();
    // Threads inherit their creator's mask: give the noise its CPUs explicitly, never "ours".
    noise =
        NoiseThreads.start(threads, kit.backend(), mode.equals("exclusive") ? others : reachable);
  }

  /** The critical work: a fixed number of xorshift rounds. */
  @Benchmark
  public long critical() {
    long x = 88172645463325252L;
    for (long i = 0; i < rounds; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
    }
    return x;
  }

  /** Which kind of exclusivity this trial measures, in one line. */
  private String kind(int critical) {
    if (isolation.isEmpty()) {
      return "JVM-level (the rest of this JVM confined off cpu "
          + critical
          + "; other processes, kernel threads and IRQs may still run there)";
    }
    IsolationReport r = isolation.get().report();
    return isolation.get().isActive()
        ? "runtime isolation of cpu "
            + critical
            + " by "
            + r.mechanism()
            + " (what stays: "
            + r.residues().size()
            + " residue kinds)"
        : "JVM-level only: runtime isolation refused (" + r.refusal() + ")";
  }

  /** Stops the noise, gives the isolation back and unpins. */
  @TearDown(Level.Trial)
  public void tearDown() throws InterruptedException {
    noise.stop();
    isolation.ifPresent(Isolation::close);
    if (lease != null) {
      lease.close();
    }
    if (!moved.isEmpty()) {
      System.out.println("# exclusive: moved " + moved.size() + " JVM threads to housekeeping");
    }
  }
}
