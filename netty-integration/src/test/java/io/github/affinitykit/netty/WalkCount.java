package io.github.affinitykit.netty;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.ForwardingAffinityBackend;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The walk, counted (docs/ARCHITECTURE.md, "One CPU request"): run in a JVM of its own under the
 * JaCoCo agent ({@code includes=io.github.affinitykit.*,jmx=true}; {@link WalkCountTest} starts
 * it), it makes a kit on this host's real {@code LinuxAffinityBackend} with its own lock directory
 * ({@code args[0]}), clears JaCoCo's probes, calls {@code
 * PinnedServerGroups.builder(kit).workers(1).build()}, starts the worker loop with one task, and
 * reads the probes again the moment the loop thread's {@code sched_setaffinity} has returned (the
 * backend is wrapped in a test class that only delegates, and reads them after the real call).
 *
 * <p>Prints {@code walk: N} and the N main classes (class files of {@code io.github.affinitykit},
 * nested ones too, not the tests') in which any probe ran, then {@code after: M} and the M classes
 * that ran after the syscall and before the loop's first task (not counted in N).
 */
public final class WalkCount {
  private static final String JACOCO = "org.jacoco:type=Runtime";

  private WalkCount() {}

  /** Counts the walk with locks in directory {@code args[0]}; exits 2 if it cannot. */
  public static void main(String[] args) throws Exception {
    AffinityBackend real = AffinityBackend.detect();
    if (!real.isSupported()) { // detect() gives the Linux backend wherever pinning works
      System.out.println("skipped: " + real.reason());
      System.exit(2);
    }
    HostCpus host = HostCpus.probe();
    AtSyscall backend = new AtSyscall(real);
    AffinityKit kit =
        AffinityKit.create(host, backend, CpuReservations.inDirectory(Path.of(args[0])));
    CountDownLatch ran = new CountDownLatch(1);
    AtomicReference<byte[]> atTask = new AtomicReference<>();

    invoke("reset");
    try (PinnedServerGroups groups = PinnedServerGroups.builder(kit).workers(1).build()) {
      backend.arm(Thread.currentThread());
      groups
          .workers()
          .next()
          .execute(
              () -> {
                atTask.set(executionData());
                ran.countDown();
              });
      if (!ran.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("worker loop: no task ran in 30 s (expected: one)");
      }
    }
    byte[] atSyscall = backend.snapshot();
    if (atSyscall == null) {
      throw new IllegalStateException("sched_setaffinity: not called by the loop (expected: once)");
    }
    Set<String> walk = ranClasses(atSyscall);
    Set<String> after = ranClasses(atTask.get());
    after.removeAll(walk);
    print("walk", walk);
    print("after", after);
  }

  private static void print(String what, Set<String> classes) {
    System.out.println(what + ": " + classes.size());
    classes.forEach(c -> System.out.println("  " + c));
  }

  static byte[] executionData() {
    return (byte[]) invoke("getExecutionData", false);
  }

  private static Object invoke(String operation, Object... args) {
    String[] types = new String[args.length];
    for (int i = 0; i < args.length; i++) {
      types[i] = "boolean";
    }
    try {
      return ManagementFactory.getPlatformMBeanServer()
          .invoke(new ObjectName(JACOCO), operation, args, types);
    } catch (JMException e) {
      throw new IllegalStateException(
          "JaCoCo agent: " + e + " (expected: the agent with jmx=true)", e);
    }
  }

  /**
   * The main classes of the library in which a probe ran, by binary name ({@code a.b.C$D}): class
   * files loaded from outside test-classes directories and test jars.
   */
  static Set<String> ranClasses(byte[] exec) throws IOException {
    Set<String> out = new TreeSet<>();
    for (String name : ExecReader.hitClasses(exec)) {
      String binary = name.replace('/', '.');
      if (isMain(binary)) {
        out.add(binary);
      }
    }
    return out;
  }

  private static boolean isMain(String binary) {
    try {
      CodeSource source =
          Class.forName(binary, false, WalkCount.class.getClassLoader())
              .getProtectionDomain()
              .getCodeSource();
      String where = source == null ? "" : source.getLocation().toString();
      return !where.contains("/test-classes/") && !where.endsWith("-tests.jar");
    } catch (ClassNotFoundException e) {
      return true; // a class JaCoCo saw run but not loadable by name: count it
    }
  }

  /**
   * JaCoCo's execution data format (blocks: 0x01 header, 0x10 session, 0x11 a class's id, name and
   * probes as a var-int length and bits, low bit first).
   */
  static final class ExecReader {
    private static final int FORMAT = 0x1007;

    private ExecReader() {}

    static List<String> hitClasses(byte[] exec) throws IOException {
      List<String> hit = new ArrayList<>();
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(exec));
      int block;
      while ((block = in.read()) != -1) {
        switch (block) {
          case 0x01 -> {
            int magic = in.readChar();
            int version = in.readChar();
            if (magic != 0xC0C0 || version != FORMAT) {
              throw new IOException(
                  "JaCoCo exec header: "
                      + Integer.toHexString(magic)
                      + "/"
                      + Integer.toHexString(version)
                      + " (expected: c0c0/"
                      + Integer.toHexString(FORMAT)
                      + ")");
            }
          }
          case 0x10 -> {
            in.readUTF();
            in.readLong();
            in.readLong();
          }
          case 0x11 -> {
            in.readLong();
            String name = in.readUTF();
            if (anyProbe(in)) {
              hit.add(name);
            }
          }
          default ->
              throw new IOException("JaCoCo exec block: " + block + " (expected: 1, 16, 17)");
        }
      }
      return hit;
    }

    private static boolean anyProbe(DataInputStream in) throws IOException {
      int probes = varInt(in);
      boolean any = false;
      for (int i = 0; i < (probes + 7) / 8; i++) {
        any |= in.readUnsignedByte() != 0;
      }
      return any;
    }

    private static int varInt(DataInputStream in) throws IOException {
      int value = 0;
      for (int shift = 0; ; shift += 7) {
        int b = in.readUnsignedByte();
        value |= (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          return value;
        }
      }
    }
  }

  /**
   * The real backend, delegated to call for call; reads JaCoCo's probes right after the first
   * {@code setAffinity} of a thread other than the armer's returns (the loop thread's pin).
   */
  static final class AtSyscall extends ForwardingAffinityBackend {
    private volatile Thread armer;
    private final AtomicReference<byte[]> snapshot = new AtomicReference<>();

    AtSyscall(AffinityBackend real) {
      super(real);
    }

    void arm(Thread thread) {
      armer = thread;
    }

    byte[] snapshot() {
      return snapshot.get();
    }

    @Override
    public void setAffinity(int tid, CpuSet cpus) {
      super.setAffinity(tid, cpus);
      Thread by = armer;
      if (by != null && by != Thread.currentThread() && snapshot.get() == null) {
        snapshot.compareAndSet(null, executionData());
      }
    }
  }
}
