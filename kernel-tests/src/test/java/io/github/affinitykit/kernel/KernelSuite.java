package io.github.affinitykit.kernel;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.stream.Stream;
import org.opentest4j.TestAbortedException;

/**
 * The suite's entry point: finds QEMU, a kernel image and a static busybox (or skips the calling
 * test class with one line saying what to install), builds the guest image and boots a shape.
 *
 * <p>Thread safety: JUnit runs these test classes one at a time; {@link #bootSideBySide} builds
 * images on the calling thread and only the boots themselves run concurrently.
 */
final class KernelSuite {
  /** What the skip line tells a developer to install (Debian/Ubuntu package names). */
  static final String INSTALL =
      "apt-get install qemu-system-x86 linux-image-amd64 linux-image-6.12-amd64 busybox-static runc";

  private static final Path WORK =
      Path.of(System.getProperty("kernel.workDir", "target/kernel")).toAbsolutePath();

  private KernelSuite() {}

  /** A guest's boot, image built, not yet started. */
  private interface Boot extends Callable<GuestResult> {
    @Override
    GuestResult call() throws IOException, InterruptedException;
  }

  /**
   * Boots {@code shape} and returns what it reported; aborts the calling test class (a JUnit
   * assumption, reported as skipped with the reason) when QEMU, a kernel or busybox is missing.
   */
  static GuestResult boot(Shape shape) throws IOException, InterruptedException {
    return prepare(shape).call();
  }

  /**
   * Boots the shapes of {@code lanes} side by side: each lane on a thread of its own, its shapes
   * one after another; returns each shape's result by name. Meant for shapes on single-threaded TCG
   * (one host CPU each): two lanes on a 2-CPU host take the time of the longer one rather than the
   * sum. The images are built first, one after another (they share the base archive); a shape that
   * cannot boot here (something missing) fails its future with the assumption {@link #boot} would
   * throw, and the rest still boot. Every boot ends by its shape's own time limit, guest killed.
   */
  static Map<String, Future<GuestResult>> bootSideBySide(List<List<Shape>> lanes)
      throws IOException, InterruptedException {
    Map<String, Future<GuestResult>> out = new LinkedHashMap<>();
    List<List<FutureTask<GuestResult>>> tasks = new ArrayList<>();
    for (List<Shape> lane : lanes) {
      List<FutureTask<GuestResult>> laneTasks = new ArrayList<>();
      for (Shape s : lane) {
        FutureTask<GuestResult> task;
        try {
          task = new FutureTask<>(prepare(s));
        } catch (TestAbortedException skipped) {
          task =
              new FutureTask<>(
                  () -> {
                    throw skipped;
                  });
        }
        laneTasks.add(task);
        out.put(s.name(), task);
      }
      tasks.add(laneTasks);
    }
    for (List<FutureTask<GuestResult>> lane : tasks) {
      Thread t = new Thread(() -> lane.forEach(FutureTask::run), "guest-lane");
      t.setDaemon(true);
      t.start();
    }
    return out;
  }

  /**
   * What {@link #bootSideBySide} started for one shape: its result once it has ended, the
   * assumption that skipped it rethrown as is.
   */
  static GuestResult await(Future<GuestResult> boot) throws Exception {
    try {
      return boot.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }

  /**
   * Builds {@code shape}'s image and returns its boot, not started; aborts the calling test class
   * as {@link #boot} says when something is missing.
   */
  private static Boot prepare(Shape shape) throws IOException, InterruptedException {
    Optional<Path> qemu = onPath("qemu-system-x86_64");
    Optional<Path> kernel = kernel(shape.kernel());
    Optional<Path> busybox = firstExisting("/bin/busybox", "/usr/bin/busybox");
    List<String> missing = new ArrayList<>();
    qemu.ifPresentOrElse(p -> {}, () -> missing.add("qemu-system-x86_64"));
    kernel.ifPresentOrElse(
        p -> {},
        () ->
            missing.add(
                "a "
                    + shape.kernel()
                    + " kernel image (/boot/vmlinuz-"
                    + shape.kernel()
                    + ".*; Debian: "
                    + debianPackage(shape.kernel())
                    + ")"));
    busybox.ifPresentOrElse(p -> {}, () -> missing.add("busybox"));
    Map<String, Path> modules = modules(shape, kernel, missing);
    List<Path> programs = new ArrayList<>();
    for (String name : shape.programs()) {
      program(name).ifPresentOrElse(programs::add, () -> missing.add(name));
    }
    boolean linuxX86 =
        System.getProperty("os.name").equals("Linux")
            && System.getProperty("os.arch").equals("amd64");
    assumeTrue(
        linuxX86 && missing.isEmpty(),
        () ->
            "kernel tests skipped: "
                + (linuxX86 ? String.join(", ", missing) + " not found" : "not Linux x86-64")
                + " (install: "
                + INSTALL
                + ")");
    Path gatewayJar = Path.of(System.getProperty("kernel.gatewayJar", "missing-gateway.jar"));
    if (!Files.isRegularFile(gatewayJar)) {
      throw new IllegalStateException(
          "kernel.gatewayJar: "
              + gatewayJar
              + " (expected: affinity-gateway.jar, built by netty-integration/gateway's package"
              + " phase)");
    }
    GuestImage image = new GuestImage(WORK, busybox.orElseThrow(), classpath(), gatewayJar);
    Path initrd =
        image.build(
            shape.name(), InitScript.render(shape, image.guestClasspath()), modules, programs);
    Path q = qemu.orElseThrow();
    Path k = kernel.orElseThrow();
    return () -> {
      GuestResult r = GuestBoot.boot(shape, q, k, initrd, WORK);
      System.out.println(r.timing());
      synchronized (KernelSuite.class) {
        Files.writeString(
            WORK.resolve("timings.txt"),
            r.timing() + "\n",
            java.nio.file.StandardOpenOption.CREATE,
            java.nio.file.StandardOpenOption.APPEND);
      }
      return r;
    };
  }

  /**
   * The shape's kernel modules, from {@code /lib/modules/<release>/kernel} of the booted kernel
   * ({@code vmlinuz-<release>}); each one missing is added to {@code missing}.
   */
  private static Map<String, Path> modules(
      Shape shape, Optional<Path> kernel, List<String> missing) {
    Map<String, Path> out = new LinkedHashMap<>();
    if (kernel.isEmpty()) {
      return out;
    }
    String image = kernel.get().getFileName().toString();
    String release = image.startsWith("vmlinuz-") ? image.substring("vmlinuz-".length()) : image;
    Path dir = Path.of("/lib/modules", release, "kernel");
    for (String m : shape.modules()) {
      Path p = dir.resolve(m);
      if (Files.isRegularFile(p)) {
        out.put(m, p);
      } else {
        missing
            .add( // busybox insmod takes plain .ko files: compressed ones (.ko.xz) count as missing
                "kernel module " + p + " (uncompressed; Debian 12: linux-image-" + release + ")");
      }
    }
    return out;
  }

  /** This module's test classpath: the scenarios and every project jar they run. */
  private static List<Path> classpath() {
    String cp =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<Path> out = new ArrayList<>();
    for (String e : cp.split(File.pathSeparator)) {
      Path p = Path.of(e);
      if (!e.isBlank() && Files.exists(p)) {
        out.add(p.toAbsolutePath());
      }
    }
    return out;
  }

  /**
   * The kernel of {@code version}: {@code -Dkernel.image} for every shape if given, else the newest
   * readable {@code /boot/vmlinuz-<version>.*} or {@code -<version>-*} (so 6.1 never picks 6.12).
   */
  static Optional<Path> kernel(String version) throws IOException {
    String named = System.getProperty("kernel.image", "");
    if (!named.isBlank()) {
      return Optional.of(Path.of(named)).filter(Files::isReadable);
    }
    return newest(Path.of("/boot"), version);
  }

  /**
   * The newest readable {@code vmlinuz-<version>.*} or {@code vmlinuz-<version>-*} in {@code boot}.
   */
  static Optional<Path> newest(Path boot, String version) throws IOException {
    if (!Files.isDirectory(boot)) {
      return Optional.empty();
    }
    String a = "vmlinuz-" + version + ".";
    String b = "vmlinuz-" + version + "-";
    try (Stream<Path> s = Files.list(boot)) {
      return s.filter(
              p ->
                  p.getFileName().toString().startsWith(a)
                      || p.getFileName().toString().startsWith(b))
          .filter(Files::isReadable)
          .max(Path::compareTo);
    }
  }

  /** The Debian package that installs a kernel of {@code version}. */
  static String debianPackage(String version) {
    return version.equals(Shape.DEBIAN_12)
        ? "linux-image-amd64"
        : "linux-image-" + version + "-amd64";
  }

  /** A host program on the {@code PATH} or in {@code /usr/sbin}, {@code /sbin}. */
  static Optional<Path> program(String name) {
    // Debian's package first: a program elsewhere on PATH (a static release in /usr/local/bin) is
    // another build, and the guest's PATH has only these directories
    return firstExisting("/usr/sbin/" + name, "/usr/bin/" + name, "/sbin/" + name)
        .or(() -> onPath(name));
  }

  private static Optional<Path> onPath(String name) {
    String path = Optional.ofNullable(System.getenv("PATH")).orElse("/usr/bin:/bin");
    return Stream.of(path.split(File.pathSeparator))
        .filter(d -> !d.isBlank())
        .map(d -> Path.of(d, name))
        .filter(Files::isExecutable)
        .findFirst();
  }

  private static Optional<Path> firstExisting(String... paths) {
    return Stream.of(paths).map(Path::of).filter(Files::isExecutable).findFirst();
  }
}
