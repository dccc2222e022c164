package io.github.affinitykit.bench;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.PinnedThreadFactory;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.internal.natives.FileCalls;
import io.github.affinitykit.core.internal.natives.NativeLayer;
import io.github.affinitykit.core.internal.natives.ThreadCalls;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What pinning costs: reserve + bind + restore + release of the calling thread, and creating,
 * starting and joining a pinned thread, for Affinity Kit on each native layer ({@code nativeLayer}
 * {@code jna}, and {@code ffm}: {@code java.lang.foreign}, JDK 22+ only; on JDK 17-21 pass {@code
 * -p nativeLayer=jna}) and for OpenHFT's {@code AffinityLock} / {@code AffinityThreadFactory}, in
 * the same run. The two libraries use different lock directories (using both on one directory in
 * one JVM is unsupported). {@code floorPinRelease} is the physical floor of a pin and release: the
 * system calls they cannot do without, on the same native layer, with nothing around them. Run:
 * {@code java -jar benchmarks.jar Overhead}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class OverheadBenchmark {
  private int cpu;
  private AffinityThreadFactory theirs;

  /** Affinity Kit on one native layer, chosen before the layer is first used in the fork. */
  @State(Scope.Thread)
  public static class Kit {
    /** {@code jna} or {@code ffm} ({@code -Daffinitykit.native}, read once per JVM). */
    @Param({"jna", "ffm"})
    public String nativeLayer;

    private AffinityKit kit;
    private int cpu;
    private PinnedThreadFactory ours;

    /** Builds the kit on the layer asked for, or fails saying why that layer cannot load. */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
      System.setProperty("affinitykit.native", nativeLayer);
      HostCpus host = HostCpus.probe();
      cpu = host.reachable().last();
      AffinityBackend backend = AffinityBackend.detect();
      String expected = nativeLayer.equals("ffm") ? "Linux: java.lang.foreign" : "Linux: JNA";
      if (!backend.reason().startsWith(expected)) {
        throw new IllegalStateException(
            "nativeLayer " + nativeLayer + " cannot pin here: " + backend.reason());
      }
      kit =
          AffinityKit.create(
              host,
              backend,
              CpuReservations.inDirectory(Files.createTempDirectory("overhead-bench")),
              host.pool(CpuSet.of(cpu)));
      ours = PinnedThreadFactory.builder(kit.group("ours")).build();
    }
  }

  /**
   * The floor's state: the calling thread's TID and masks, and two lock files opened once, as a
   * reservation keeps its two (Affinity Kit's and OpenHFT's) open between pins. It calls the native
   * layer core uses ({@code core.internal.natives}: public classes of a package core's module
   * exports to nobody, reachable here because the benchmarks run on the class path) so that the
   * floor and the kit make the same calls through the same layer.
   */
  @State(Scope.Thread)
  public static class Floor {
    /** {@code jna} or {@code ffm}, as {@link Kit#nativeLayer}. */
    @Param({"jna", "ffm"})
    public String nativeLayer;

    private ThreadCalls threads;
    private FileCalls files;
    private int tid;
    private long[] one;
    private long[] all;
    private final int[] fds = {-1, -1};
    private Path dir;

    /** Loads the layer asked for, or fails saying why it cannot load here. */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
      NativeLayer layer =
          NativeLayer.load(
              nativeLayer, System.getProperty("os.name"), System.getProperty("os.arch"));
      threads =
          layer
              .threads()
              .orElseThrow(
                  () ->
                      new IllegalStateException("nativeLayer " + nativeLayer + ": " + layer.why()));
      files = layer.files().orElseThrow(() -> new IllegalStateException(layer.why()));
      tid = threads.threadId();
      all = new long[16];
      if (threads.getAffinity(tid, all) != 0) {
        throw new IllegalStateException("sched_getaffinity failed for tid " + tid);
      }
      int cpu = HostCpus.probe().reachable().last();
      one = new long[16];
      one[cpu / 64] = 1L << (cpu % 64);
      dir = Files.createTempDirectory("overhead-floor");
      for (int i = 0; i < fds.length; i++) {
        byte[] path = NativeLayer.cString(dir.resolve("cpu-" + cpu + "-" + i + ".lock").toString());
        fds[i] = files.open(path, FileCalls.O_RDWR | FileCalls.O_CREAT | FileCalls.O_CLOEXEC, 0600);
        if (fds[i] < 0) {
          throw new IllegalStateException("open: errno " + -fds[i]);
        }
      }
    }

    /** Closes the lock files and deletes the directory it made. */
    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
      for (int fd : fds) {
        if (fd >= 0) {
          files.close(fd);
        }
      }
      try (var paths = Files.list(dir)) {
        for (Path p : (Iterable<Path>) paths::iterator) {
          Files.delete(p);
        }
      }
      Files.delete(dir);
    }
  }

  /**
   * The floor: lock both lock files, bind the thread to the CPU, bind it back, unlock both: six
   * system calls ({@code fcntl(F_OFD_SETLK)} ×4, {@code sched_setaffinity} ×2), nothing else.
   */
  @Benchmark
  public int floorPinRelease(Floor f) {
    int r = f.files.setLock(f.fds[0], FileCalls.F_OFD_SETLK, FileCalls.F_WRLCK);
    r |= f.files.setLock(f.fds[1], FileCalls.F_OFD_SETLK, FileCalls.F_WRLCK);
    r |= f.threads.setAffinity(f.tid, f.one);
    r |= f.threads.setAffinity(f.tid, f.all);
    r |= f.files.setLock(f.fds[1], FileCalls.F_OFD_SETLK, FileCalls.F_UNLCK);
    r |= f.files.setLock(f.fds[0], FileCalls.F_OFD_SETLK, FileCalls.F_UNLCK);
    return r;
  }

  /** Builds OpenHFT's objects once (its class initialisation is not measured). */
  @Setup(Level.Trial)
  public void setUp() throws Exception {
    // OpenHFT keeps its lock files in java.io.tmpdir, read when its classes initialise: give this
    // fork a private one, so that it never touches cpu-N.lock files other programs hold in /tmp.
    System.setProperty(
        "java.io.tmpdir",
        Files.createTempDirectory("overhead-openhft").toAbsolutePath().toString());
    cpu = HostCpus.probe().reachable().last();
    theirs = new AffinityThreadFactory("theirs", AffinityStrategies.ANY);
    AffinityLock.acquireLock(cpu).release(); // class init and lock file creation outside timing
  }

  /** Affinity Kit: reserve, bind, restore, release. */
  @Benchmark
  public int affinityKitPinRelease(Kit k) {
    try (CpuLease lease = k.kit.pinCurrentThread(k.cpu)) {
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
  public Thread affinityKitThreadStart(Kit k) throws InterruptedException {
    Thread t = k.ours.newThread(() -> {});
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
