package io.github.affinitykit.bench;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.PinnedThreadFactory;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import net.openhft.affinity.AffinityLock;
import net.openhft.affinity.AffinityStrategies;
import net.openhft.affinity.AffinityThreadFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What pinning costs: reserve + bind + restore + release of the calling thread, and creating,
 * starting and joining a pinned thread, for Affinity Kit and for OpenHFT's {@code AffinityLock} /
 * {@code AffinityThreadFactory}. The two libraries use different lock directories (using both on
 * one directory in one JVM is unsupported). Run: {@code java -jar benchmarks.jar Overhead}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class OverheadBenchmark {
  private AffinityKit kit;
  private int cpu;
  private PinnedThreadFactory ours;
  private AffinityThreadFactory theirs;

  /** Builds both libraries' objects once (OpenHFT's class initialisation is not measured). */
  @Setup(Level.Trial)
  public void setUp() throws Exception {
    // OpenHFT keeps its lock files in java.io.tmpdir, read when its classes initialise: give this
    // fork a private one, so that it never touches cpu-N.lock files other programs hold in /tmp.
    System.setProperty(
        "java.io.tmpdir",
        Files.createTempDirectory("overhead-openhft").toAbsolutePath().toString());
    HostCpus host = HostCpus.probe();
    cpu = host.reachable().last();
    kit =
        AffinityKit.create(
            host,
            AffinityBackend.detect(),
            CpuReservations.inDirectory(Files.createTempDirectory("overhead-bench")),
            host.pool(CpuSet.of(cpu)));
    ours = kit.threadFactory("ours").build();
    theirs = new AffinityThreadFactory("theirs", AffinityStrategies.ANY);
    AffinityLock.acquireLock(cpu).release(); // class init and lock file creation outside timing
  }

  /** Affinity Kit: reserve, bind, restore, release. */
  @Benchmark
  public int affinityKitPinRelease() {
    try (CpuLease lease = kit.pinCurrentThread(cpu)) {
      return lease.cpu();
    }
  }

  /** OpenHFT: acquire a lock on the CPU (binds), release (unbinds). */
  @Benchmark
  public int openHftAcquireRelease() {
    AffinityLock lock = AffinityLock.acquireLock(cpu);
    try {
      return lock.cpuId();
    } finally {
      lock.release();
    }
  }

  /** Affinity Kit: a pinned thread created, started and joined. */
  @Benchmark
  public Thread affinityKitThreadStart() throws InterruptedException {
    Thread t = ours.newThread(() -> {});
    t.start();
    t.join();
    return t;
  }

  /** OpenHFT: a pinned thread created, started and joined. */
  @Benchmark
  public Thread openHftThreadStart() throws InterruptedException {
    Thread t = theirs.newThread(() -> {});
    t.start();
    t.join();
    return t;
  }
}
