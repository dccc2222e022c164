package io.github.affinitykit.core.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.ChildJvm;
import io.github.affinitykit.core.ChildJvm.Launch;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two users, root (this JVM) and {@code nobody} (child JVMs started through {@code setpriv} under
 * umask 077), share one lock directory of this test's own (mode 1777, as {@code /tmp}): each
 * reserves the same CPU in turn, whoever created its lock files; and a root-owned {@code 0644} file
 * (as an older version made them) is, for {@code nobody}, a {@code PERMISSION_DENIED} status naming
 * the file, its owner, its mode and the fix, on both lock file implementations, the file left as it
 * was. Needs root and setpriv; changes nothing outside its directory.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(120)
class SharedLockDirectoryIT {
  private static final int NOBODY = 65534;
  private static final List<String> NO_NATIVE_FILES =
      List.of("-Djna.nosys=true", "-Djna.noclasspath=true", "-Daffinitykit.native=jna");

  @TempDir Path tmp;
  private Path locks;
  private Launch asNobody;
  private List<String> nobodyJvm;
  private final List<ChildJvm> children = new ArrayList<>();

  @BeforeEach
  void setUp() throws IOException {
    assumeTrue(uid(Path.of("/proc/self")) == 0, "needs root: it runs JVMs as user nobody too");
    Optional<Path> setpriv = onPath("setpriv");
    assumeTrue(setpriv.isPresent(), "needs setpriv (util-linux) to run a JVM as user nobody");
    Optional<Path> closed = unreachable(tmp.getParent());
    assumeTrue(
        closed.isEmpty(), () -> "user nobody cannot reach " + closed.get() + " (no o+x on it)");
    Files.setAttribute(tmp, "unix:mode", 0755); // JUnit makes it 0700
    locks = shared(tmp.resolve("locks"));
    Path childTmp = shared(tmp.resolve("child-tmp")); // JNA's stub, the child JVM's temp files
    nobodyJvm = List.of("-Djava.io.tmpdir=" + childTmp, "-Djna.tmpdir=" + childTmp);
    asNobody =
        new Launch(
            List.of(
                "/bin/sh",
                "-c",
                "umask 077 && exec \"$@\"",
                "sh",
                setpriv.get().toString(),
                "--reuid=" + NOBODY,
                "--regid=" + NOBODY,
                "--clear-groups"),
            readableClassPath(tmp.resolve("cp")),
            Map.of());
  }

  @AfterEach
  void killChildren() {
    children.forEach(ChildJvm::close);
  }

  private static Path shared(Path dir) throws IOException {
    Files.createDirectory(dir);
    Files.setAttribute(dir, "unix:mode", 01777);
    return dir;
  }

  private static int uid(Path path) throws IOException {
    return (Integer) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
  }

  private static int mode(Path path) throws IOException {
    return (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777;
  }

  private static Optional<Path> onPath(String program) {
    return Stream.of(System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":"))
        .map(d -> Path.of(d, program))
        .filter(Files::isExecutable)
        .findFirst();
  }

  /** The first directory from {@code dir} up that others cannot search, if any. */
  private static Optional<Path> unreachable(Path dir) throws IOException {
    for (Path d = dir.toRealPath(); d != null; d = d.getParent()) {
      if ((mode(d) & 01) == 0) {
        return Optional.of(d);
      }
    }
    return Optional.empty();
  }

  /**
   * This project's classes (directories and jars under a {@code target} directory) and JNA, copied
   * where user nobody can read them (the local Maven repository is often private to root).
   */
  private static String readableClassPath(Path into) throws IOException {
    List<String> entries = new ArrayList<>();
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path from = Path.of(e);
      String name = from.getFileName().toString();
      boolean ours = Files.isDirectory(from) || e.contains("/target/") || name.startsWith("jna-");
      if (e.isEmpty() || !Files.exists(from) || !ours) {
        continue;
      }
      Path to = into.resolve(entries.size() + "-" + name);
      try (Stream<Path> files = Files.walk(from)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          Path target = to.resolve(from.relativize(f).toString());
          if (Files.isDirectory(f)) {
            Files.createDirectories(target);
          } else {
            Files.createDirectories(target.getParent());
            Files.copy(f, target, StandardCopyOption.COPY_ATTRIBUTES);
          }
        }
      }
      entries.add(to.toString());
    }
    try (Stream<Path> all = Files.walk(into)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        Files.setAttribute(p, "unix:mode", Files.isDirectory(p) ? 0755 : 0644);
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  private ChildJvm nobody(List<String> jvmArgs, int cpu) throws IOException {
    List<String> args = new ArrayList<>(nobodyJvm);
    args.addAll(jvmArgs);
    ChildJvm child =
        ChildJvm.start(
            tmp, asNobody, args, ReservationHolderMain.class, locks.toString(), "" + cpu);
    children.add(child);
    return child;
  }

  private void assertEveryUserCanLock(int cpu, int owner) throws IOException {
    for (String name : List.of("cpu-" + cpu + ".lock", "cpu-" + cpu + ".lock.affinitykit")) {
      Path file = locks.resolve(name);
      assertThat(uid(file)).as(file.toString()).isEqualTo(owner);
      assertThat(mode(file)).as(file.toString()).isEqualTo(0666);
    }
  }

  @Test
  void shouldLetRootAndNobodyReserveTheSameCpuInTurnWhoeverCreatedItsFiles() throws Exception {
    CpuReservations root = CpuReservations.inDirectory(locks);
    root.tryReserve(1).orElseThrow().close();
    assertEveryUserCanLock(1, 0);

    ChildJvm child = nobody(List.of(), 1);
    assertThat(child.awaitLine("READY"))
        .as(child.stderr())
        .containsExactly("RESERVED", "" + child.pid());
    ReservationResult refused = root.tryReserve(1);
    assertThat(refused.status()).isEqualTo(ReservationStatus.HELD_BY_OTHER_PROCESS);
    assertThat(refused.reason()).contains("(the file claims pid " + child.pid() + " since ");
    assertThat(child.exit()).isZero();
    root.tryReserve(1).orElseThrow().close(); // and back

    ChildJvm first = nobody(List.of(), 0); // nobody creates CPU 0's files, under umask 077
    assertThat(first.awaitLine("READY"))
        .as(first.stderr())
        .containsExactly("RESERVED", "" + first.pid());
    assertThat(first.exit()).isZero();
    assertEveryUserCanLock(0, NOBODY);
    root.tryReserve(0).orElseThrow().close();
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void shouldTellNobodyWhoseFileItIsAndTheFixWithoutTouchingIt(boolean fileChannels)
      throws Exception {
    Path own = Files.writeString(locks.resolve("cpu-2.lock.affinitykit"), "1\nroot's");
    Files.setAttribute(own, "unix:mode", 0644);

    ChildJvm child = nobody(fileChannels ? NO_NATIVE_FILES : List.of(), 2);
    assertThat(child.awaitLine("READY"))
        .as(child.stderr())
        .containsExactly("PERMISSION_DENIED", "-1");
    assertThat(String.join(" ", child.awaitLine("REASON")))
        .isEqualTo(
            "cpu 2: "
                + own.toRealPath()
                + " belongs to uid 0 (root), mode 0644, and this user may not open it for"
                + " writing: ask its owner or root to chmod 666 it, or choose another lock"
                + " directory with -Daffinitykit.lock.dir or AFFINITYKIT_LOCK_DIR");
    assertThat(child.exit()).isZero();

    assertThat(mode(own)).isEqualTo(0644);
    assertThat(uid(own)).isZero();
    assertThat(Files.readString(own, StandardCharsets.UTF_8)).isEqualTo("1\nroot's");
  }
}
