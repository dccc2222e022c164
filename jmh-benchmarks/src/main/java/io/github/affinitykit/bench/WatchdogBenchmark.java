package io.github.affinitykit.bench;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.Seat;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.placement.RunOutPolicy;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.watchdog.RepinPolicy;
import io.github.affinitykit.watchdog.WatchReport;
import io.github.affinitykit.watchdog.Watchdog;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
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
 *
 * <p>Thread safety: JMH calls {@link #setUp} and {@link #tearDown} from one thread, before and
 * after the trial; {@link #check} may run on several benchmark threads at once ({@link
 * Watchdog#checkNow()} serialises the checks).
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

  /** The names of the lock files a kit makes: OpenHFT's and its own. */
  private static final Pattern LOCK_FILE = Pattern.compile("cpu-\\d+\\.lock(\\.affinitykit)?");

  private final CountDownLatch done = new CountDownLatch(1);
  private final List<Thread> threads = new ArrayList<>();
  private CpuGroup group;
  private Watchdog dog;
  private Path locks;

  /** Pins {@code leases} parked threads and builds a watchdog (not started: the check is timed). */
  @Setup(Level.Trial)
  public void setUp() throws Exception {
    HostCpus host = HostCpus.probe();
    AffinityBackend backend = AffinityBackend.detect();
    if (!backend.isSupported()) {
      throw new IllegalStateException("this host cannot pin: " + backend.reason());
    }
    locks = Files.createTempDirectory("watchdog-bench");
    AffinityKit kit = AffinityKit.create(host, backend, CpuReservations.inDirectory(locks));
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

  /**
   * Lets the threads go; their leases close and free the CPUs. Then deletes the lock files the kit
   * made ({@code cpu-<N>.lock} and {@code cpu-<N>.lock.affinitykit}, kept by design) and their
   * temporary directory, which fails if anything else is in it.
   */
  @TearDown(Level.Trial)
  public void tearDown() throws InterruptedException, IOException {
    done.countDown();
    for (Thread t : threads) {
      t.join(10_000);
    }
    dog.close();
    group.close();
    try (DirectoryStream<Path> lockFiles = Files.newDirectoryStream(locks)) {
      for (Path f : lockFiles) {
        if (LOCK_FILE.matcher(f.getFileName().toString()).matches()) {
          Files.delete(f);
        }
      }
    }
    Files.delete(locks);
  }

  /** The status of each member, for the test of this state. */
  Set<LeaseStatus> statuses() {
    Set<LeaseStatus> out = new HashSet<>();
    group.assignments().forEach(a -> out.add(a.status()));
    return out;
  }

  /** The directory of the lock files, for the test of this state. */
  Path locks() {
    return locks;
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
