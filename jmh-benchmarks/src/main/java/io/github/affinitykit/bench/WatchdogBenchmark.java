package io.github.affinitykit.bench;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.RepinPolicy;
import io.github.affinitykit.core.Seat;
import io.github.affinitykit.core.WatchReport;
import io.github.affinitykit.core.Watchdog;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.placement.RunOutPolicy;
import io.github.affinitykit.core.reservation.CpuReservations;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
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
 * What one watchdog check costs ({@link Watchdog#checkNow()}, without an audit): for each open
 * lease a lock-file check ({@code CpuLease.verify()}) and a {@code sched_getaffinity} ({@code
 * CpuLease.check()}), on this host's real backend, for {@code leases} live threads pinned by one
 * group (more threads than CPUs share them: run-out {@code SHARE}, so 256 leases fit on 2 CPUs).
 * Nothing moves, so the check finds nothing: the steady cost a period pays. Divide by the period
 * for the share of a CPU it takes (e.g. 100 µs every second is 0.01%). Run: {@code java -jar
 * jmh-benchmarks/target/benchmarks.jar WatchdogBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class WatchdogBenchmark {
  /** How many pinned threads the watchdog checks. */
  @Param({"1", "16", "256"})
  public int leases;

  private final CountDownLatch done = new CountDownLatch(1);
  private final List<Thread> threads = new ArrayList<>();
  private CpuGroup group;
  private Watchdog dog;

  /** Pins {@code leases} parked threads and builds a watchdog (not started: the check is timed). */
  @Setup(Level.Trial)
  public void setUp() throws Exception {
    HostCpus host = HostCpus.probe();
    AffinityBackend backend = AffinityBackend.detect();
    if (!backend.isSupported()) {
      throw new IllegalStateException("this host cannot pin: " + backend.reason());
    }
    AffinityKit kit =
        AffinityKit.create(
            host,
            backend,
            CpuReservations.inDirectory(Files.createTempDirectory("watchdog-bench")));
    group = kit.group("watched").runOut(RunOutPolicy.SHARE).build();
    LinkedBlockingQueue<CpuLease> bound = new LinkedBlockingQueue<>();
    for (Seat seat : group.joinAll(leases)) {
      Thread t = new Thread(() -> hold(seat, bound), seat.member());
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
    for (int i = 0; i < leases; i++) {
      CpuLease l = bound.poll(30, TimeUnit.SECONDS);
      if (l == null || !l.isBound()) {
        throw new IllegalStateException("lease " + i + " of " + leases + " not bound: " + l);
      }
    }
    dog = Watchdog.builder(kit).repin(RepinPolicy.REPIN).build();
  }

  private void hold(Seat seat, LinkedBlockingQueue<CpuLease> bound) {
    try (CpuLease l = seat.bindOnce()) {
      bound.add(l);
      done.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Lets the threads go; their leases close and free the CPUs. */
  @TearDown(Level.Trial)
  public void tearDown() throws InterruptedException {
    done.countDown();
    for (Thread t : threads) {
      t.join(10_000);
    }
    dog.close();
    group.close();
  }

  /** The status of each member, for the test of this state. */
  java.util.Set<io.github.affinitykit.core.LeaseStatus> statuses() {
    java.util.Set<io.github.affinitykit.core.LeaseStatus> out = new java.util.HashSet<>();
    group.assignments().forEach(a -> out.add(a.status()));
    return out;
  }

  /**
   * One check of every lease.
   *
   * @return the report (consumed by JMH)
   */
  @Benchmark
  public WatchReport check() {
    WatchReport r = dog.checkNow();
    if (r.leases() != leases || !r.events().isEmpty()) {
      throw new IllegalStateException("expected " + leases + " quiet leases, found " + r);
    }
    return r;
  }
}
