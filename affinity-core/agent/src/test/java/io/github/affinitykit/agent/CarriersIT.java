package io.github.affinitykit.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.reservation.ReservationResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's {@code carriers=} rule on a child JVM of JDK 21 or later ({@link CarrierTargetMain}:
 * this JVM's if it is one, else the newest under {@code /usr/lib/jvm}), each with its own lock
 * directory: where virtual threads ran, each carrier's kernel mask read back from {@code /proc},
 * and what is left once the child's shutdown has run. Needs CPUs 0 and 1.
 */
@EnabledOnOs(OS.LINUX)
class CarriersIT {
  private static final String CARRIER_COMM = "ForkJoinPool-1-"; // 15 characters of the name

  @TempDir Path dir;
  private Path java;

  @BeforeEach
  void needsJdk21AndTwoCpus() throws IOException {
    AffinityBackend backend = AffinityBackend.detect();
    assumeTrue(backend.isSupported(), backend.reason());
    assumeTrue(backend.getAffinity(0).containsAll(CpuSet.of(0, 1)), "needs CPUs 0 and 1");
    Optional<Path> jdk = jdk21();
    assumeTrue(
        jdk.isPresent(),
        "needs a JDK 21 or later, for virtual threads: this JVM is "
            + Runtime.version().feature()
            + " and /usr/lib/jvm has none");
    java = jdk.get();
    assertThat(ChildJvm.AGENT_JAR).exists();
  }

  @Test
  @Timeout(120)
  void shouldRunEveryVirtualThreadOnTheGroupsCpu() throws Exception {
    try (ChildJvm c = start(java, dir, "carriers=cpus:1;carriers=count:2", "400")) {
      assertThat(c.await("affinity-agent: carriers: jdk."))
          .isEqualTo(
              "affinity-agent: carriers: jdk.virtualThreadScheduler.parallelism=1, one carrier"
                  + " pinned per CPU of 1; more carriers, to cover blocking, run on CPUs 1");
      assertThat(c.await("cpus ")).as("%s", c.lines()).isEqualTo("cpus [1]");
      List<String> ran = tids(c.await("carriers "));
      c.await("ready");
      Map<String, String> masks = carrierMasks(c);
      assertThat(masks.keySet()).containsAll(ran);
      assertThat(masks.values()).as("every carrier's mask").containsOnly("1");
      c.send("quit");
      c.await("exiting");
      c.send("exit");
      assertThat(c.exit()).isZero();
      assertThat(c.lines())
          .contains(
              "affinity-agent: carriers: count:2 (expected: one carriers rule); rule left out,"
                  + " the application runs");
    }
  }

  @Test
  @Timeout(120)
  void shouldPinOneCarrierPerCpuRunAddedOnesOnTheGroupAndReleaseAllAtExit() throws Exception {
    try (ChildJvm c = start(java, dir, "carriers=cpus:0-1", "400", "block")) {
      c.await("affinity-agent: carriers: jdk.virtualThreadScheduler.parallelism=2, ");
      assertThat(c.await("cpus ")).as("%s", c.lines()).isIn("cpus [0, 1]", "cpus [0]", "cpus [1]");
      List<String> ran = tids(c.await("carriers "));
      String[] spare = c.await("spare ").split(" ");
      c.await("ready");
      Map<String, String> masks = carrierMasks(c);
      assertThat(ran).allSatisfy(t -> assertThat(masks.get(t)).isIn("0", "1"));
      assertThat(masks.values()).as("%s", masks).containsOnlyOnce("0", "1");
      assertThat(spare[2]).as("added for blocked carriers, by a pinned one").isEqualTo("0-1");
      assertThat(masks).hasSizeGreaterThan(2).containsEntry(spare[1], "0-1");
      assertThat(masks.values()).filteredOn(m -> m.length() > 1).containsOnly("0-1");
      assertThat(c.lines())
          .anyMatch(
              l ->
                  l.contains("(tid " + spare[1] + "): UNPINNED cpu -1 by carriers=cpus:0-1: ")
                      && l.endsWith("runs unpinned on CPUs 0-1"));
      CpuReservations here = CpuReservations.inDirectory(dir);
      ReservationResult during = here.tryReserve(0);
      if (during.isReserved()) {
        during.orElseThrow().close();
      }
      assertThat(during.isReserved()).as("held by the child").isFalse();
      c.send("go");
      c.await("exiting"); // the child's hook waits while the agent's runs
      c.await("affinity-agent: exit: ");
      String process = c.mask(String.valueOf(c.pid()));
      assertThat(carrierMasks(c).values()).as("restored").containsOnly(process);
      for (int cpu : new int[] {0, 1}) {
        ReservationResult r = here.tryReserve(cpu);
        assertThat(r.isReserved()).as("cpu %d released: %s", cpu, r).isTrue();
        r.orElseThrow().close();
      }
      c.send("exit");
      assertThat(c.exit()).isZero();
    }
  }

  private static List<String> tids(String line) {
    String list = line.substring(line.indexOf('[') + 1, line.lastIndexOf(']'));
    return list.isBlank() ? List.of() : Arrays.asList(list.split(", "));
  }

  /** {@return this JVM's java if it is 21 or later, else the newest such JDK under /usr/lib/jvm} */
  private static Optional<Path> jdk21() throws IOException {
    if (Runtime.version().feature() >= 21) {
      return Optional.of(Path.of(System.getProperty("java.home"), "bin", "java"));
    }
    Path jvms = Path.of("/usr/lib/jvm");
    if (!Files.isDirectory(jvms)) {
      return Optional.empty();
    }
    try (Stream<Path> homes = Files.list(jvms)) {
      return homes
          .filter(h -> feature(h) >= 21 && Files.isExecutable(h.resolve("bin/java")))
          .max(Comparator.comparingInt(CarriersIT::feature))
          .map(h -> h.resolve("bin/java"));
    }
  }

  /** {@return the feature release in a JDK home's release file ({@code JAVA_VERSION="25.0.1"})} */
  private static int feature(Path home) {
    try {
      for (String l : Files.readAllLines(home.resolve("release"))) {
        if (l.startsWith("JAVA_VERSION=\"")) {
          return Integer.parseInt(l.substring(14).split("[.\"]")[0]);
        }
      }
    } catch (IOException | NumberFormatException e) {
      return 0;
    }
    return 0;
  }

  private static ChildJvm start(Path java, Path dir, String rules, String... args)
      throws IOException {
    List<String> jvm =
        List.of(
            "--enable-native-access=ALL-UNNAMED",
            "-Daffinitykit.lock.dir=" + dir,
            "-Daffinitykit.agent.verbose=true",
            ChildJvm.agent(rules));
    String classes = Path.of("target", "test-classes").toAbsolutePath().toString();
    return ChildJvm.start(
        java, dir, jvm, classes, CarrierTargetMain.class.getName(), List.of(args), Map.of());
  }

  /** {@return the mask of every carrier of {@code c} now, by kernel id} */
  private static Map<String, String> carrierMasks(ChildJvm c) throws IOException {
    Map<String, String> masks = new TreeMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc/" + c.pid() + "/task"))) {
      for (Path t : (Iterable<Path>) tasks::iterator) {
        try {
          if (Files.readString(t.resolve("comm")).strip().equals(CARRIER_COMM)) {
            masks.put(t.getFileName().toString(), c.mask(t.getFileName().toString()));
          }
        } catch (NoSuchFileException e) {
          // a thread that ended as it was listed: no carrier of the child any more
        }
      }
    }
    return masks;
  }
}
