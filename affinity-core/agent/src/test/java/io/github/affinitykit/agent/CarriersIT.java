package io.github.affinitykit.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.reservation.ReservationResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
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
  private static final Path JAR = Path.of("target", "affinity-agent.jar").toAbsolutePath();
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
    assertThat(JAR).exists();
  }

  @Test
  @Timeout(120)
  void shouldRunEveryVirtualThreadOnTheGroupsCpu() throws Exception {
    try (Child c = Child.start(java, dir, "carriers=cpus:1;carriers=count:2", "400")) {
      assertThat(c.await("affinity-agent: carriers: jdk."))
          .isEqualTo(
              "affinity-agent: carriers: jdk.virtualThreadScheduler.parallelism=1, one carrier"
                  + " pinned per CPU of 1; more carriers, to cover blocking, run on CPUs 1");
      assertThat(c.await("cpus ")).as("%s", c.lines()).isEqualTo("cpus [1]");
      List<String> ran = tids(c.await("carriers "));
      c.await("ready");
      Map<String, String> masks = c.carrierMasks();
      assertThat(masks.keySet()).containsAll(ran);
      assertThat(masks.values()).as("every carrier's mask").containsOnly("1");
      c.send("quit");
      c.await("exiting");
      c.send("exit");
      assertThat(c.waitFor()).isZero();
      assertThat(c.lines())
          .contains(
              "affinity-agent: carriers: count:2 (expected: one carriers rule); rule left out,"
                  + " the application runs");
    }
  }

  @Test
  @Timeout(120)
  void shouldPinOneCarrierPerCpuRunAddedOnesOnTheGroupAndReleaseAllAtExit() throws Exception {
    try (Child c = Child.start(java, dir, "carriers=cpus:0-1", "400", "block")) {
      c.await("affinity-agent: carriers: jdk.virtualThreadScheduler.parallelism=2, ");
      assertThat(c.await("cpus ")).as("%s", c.lines()).isIn("cpus [0, 1]", "cpus [0]", "cpus [1]");
      List<String> ran = tids(c.await("carriers "));
      String[] spare = c.await("spare ").split(" ");
      c.await("ready");
      Map<String, String> masks = c.carrierMasks();
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
      assertThat(c.carrierMasks().values()).as("restored").containsOnly(process);
      for (int cpu : new int[] {0, 1}) {
        ReservationResult r = here.tryReserve(cpu);
        assertThat(r.isReserved()).as("cpu %d released: %s", cpu, r).isTrue();
        r.orElseThrow().close();
      }
      c.send("exit");
      assertThat(c.waitFor()).isZero();
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

  /** A child JVM whose stdout and stderr are one stream of lines, read as they come. */
  private static final class Child implements AutoCloseable {
    private final Process process;
    private final PrintWriter in;
    private final BlockingQueue<String> queue = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();
    private final Thread reader;

    private Child(Process process) {
      this.process = process;
      this.in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
      this.reader =
          new Thread(
              () -> {
                try (BufferedReader r =
                    new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                  for (String l = r.readLine(); l != null; l = r.readLine()) {
                    queue.add(l);
                  }
                } catch (IOException e) {
                  queue.add("read failed: " + e);
                }
              },
              "carriers-it-reader");
      reader.setDaemon(true);
      reader.start();
    }

    static Child start(Path java, Path dir, String rules, String... args) throws IOException {
      List<String> cmd = new ArrayList<>();
      cmd.add(java.toString());
      cmd.add("--enable-native-access=ALL-UNNAMED");
      cmd.add("-Daffinitykit.lock.dir=" + dir);
      cmd.add("-Daffinitykit.agent.verbose=true");
      cmd.add("-javaagent:" + JAR + "=" + rules);
      cmd.addAll(List.of("-cp", Path.of("target", "test-classes").toAbsolutePath().toString()));
      cmd.add(CarrierTargetMain.class.getName());
      cmd.addAll(List.of(args));
      ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true).directory(dir.toFile());
      b.environment().remove("JAVA_TOOL_OPTIONS");
      return new Child(b.start());
    }

    long pid() {
      return process.pid();
    }

    void send(String line) {
      in.println(line);
    }

    /** Waits for a line starting with {@code prefix}; returns it. */
    String await(String prefix) throws InterruptedException {
      for (String l : seen) {
        if (l.startsWith(prefix)) {
          return l;
        }
      }
      while (true) {
        String l = queue.poll(60, TimeUnit.SECONDS);
        assertThat(l).as("a line %s in %s", prefix, seen).isNotNull();
        seen.add(l);
        if (l.startsWith(prefix)) {
          return l;
        }
      }
    }

    /** {@return the mask of every carrier of the child now, by kernel id} */
    Map<String, String> carrierMasks() throws IOException {
      Map<String, String> masks = new TreeMap<>();
      try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid() + "/task"))) {
        for (Path t : (Iterable<Path>) tasks::iterator) {
          if (Files.readString(t.resolve("comm")).strip().equals(CARRIER_COMM)) {
            masks.put(t.getFileName().toString(), mask(t.getFileName().toString()));
          }
        }
      }
      return masks;
    }

    String mask(String tid) throws IOException {
      for (String l : Files.readAllLines(Path.of("/proc/" + pid() + "/task/" + tid + "/status"))) {
        if (l.startsWith("Cpus_allowed_list:")) {
          return l.substring(l.indexOf(':') + 1).strip();
        }
      }
      throw new AssertionError(tid + ": no Cpus_allowed_list");
    }

    /** {@return the child's exit status}, every line read by then in {@link #lines()} */
    int waitFor() throws InterruptedException {
      int status = process.waitFor();
      reader.join(TimeUnit.SECONDS.toMillis(30));
      queue.drainTo(seen);
      return status;
    }

    List<String> lines() {
      return seen;
    }

    @Override
    public void close() {
      in.close();
      process.destroyForcibly();
    }
  }
}
