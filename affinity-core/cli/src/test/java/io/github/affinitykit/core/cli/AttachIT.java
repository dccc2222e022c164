package io.github.affinitykit.core.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.ChildJvm;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.testkit.CliRun;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code threads --pid}, {@code pin --pid} and {@code threads --all} on a child JVM started without
 * the agent ({@link AttachTargetMain}), as the same user, with its own lock directory; the agent
 * jar is the one the build copies beside the command line (the default). Every matched thread's
 * kernel mask is read back from {@code /proc}. Needs CPUs 0 and 1.
 */
@EnabledOnOs(OS.LINUX)
class AttachIT {
  private static final String JDK25 = "/usr/lib/jvm/temurin-25-jdk-amd64";

  @TempDir Path dir;

  @BeforeEach
  void needsTwoCpusAndTheAgentJar() {
    AffinityBackend backend = AffinityBackend.detect();
    assumeTrue(backend.isSupported(), backend.reason());
    assumeTrue(backend.getAffinity(0).containsAll(CpuSet.of(0, 1)), "needs CPUs 0 and 1");
    assertThat(Path.of("target", "affinity-agent.jar")).exists();
  }

  @Test
  @Timeout(90)
  void shouldListPinAndListAgainTheThreadsOfARunningJvm() throws Exception {
    Path locks = Files.createDirectory(dir.resolve("locks"));
    try (ChildJvm c =
        ChildJvm.start(dir, List.of("-Daffinitykit.lock.dir=" + locks), AttachTargetMain.class)) {
      Map<String, String> tids = new HashMap<>();
      for (int i = 0; i < 3; i++) {
        String[] w = c.awaitLine("tid ");
        tids.put(w[0], w[1]);
      }
      c.awaitLine("ready");
      String pid = Long.toString(c.pid());
      String before = mask(pid, pid);

      CliRun list = run("threads", "--pid", pid);
      assertThat(list.status()).as("%s", list).isZero();
      assertThat(list.out())
          .startsWith("pid " + pid + ": ")
          .contains("agent: none")
          .containsPattern("(?m)^" + tids.get("feed-1") + " +feed-1 +" + before + " +\\d+ +- +-$")
          .containsPattern("(?m)^" + tids.get("plain-x") + " +plain-x ");

      CliRun bad = run("pin", "--pid", pid, "bogus;x-*=count:0");
      assertThat(bad.status()).isEqualTo(2);
      assertThat(bad.err().lines())
          .as("%s", c.stderr())
          .containsExactly(
              "bogus (expected: <thread-name glob>=<group rule>)",
              "x-*: count:0 (expected: a positive number of CPUs)");
      assertThat(mask(pid, tids.get("feed-1"))).as("nothing started").isEqualTo(before);

      CliRun pin = run("pin", "--pid", pid, "feed-*=count:1,cpus:1,runout:SHARE");
      assertThat(pin.status()).as("%s", pin).isZero();
      for (String feed : List.of("feed-1", "feed-2")) {
        assertThat(mask(pid, tids.get(feed))).as(feed).isEqualTo("1");
        assertThat(pin.out())
            .containsPattern(
                "(?m)^"
                    + feed
                    + " +"
                    + tids.get(feed)
                    + " +1 +feed-\\*=count:1,cpus:1,runout:SHARE +(PINNED|SHARED) ");
      }
      assertThat(pin.out()).contains("PINNED").contains("SHARED").doesNotContain("plain-x");
      assertThat(mask(pid, tids.get("plain-x"))).isEqualTo(before);

      CliRun again = run("threads", "--pid", pid);
      assertThat(again.out())
          .containsPattern(
              "(?m)^"
                  + tids.get("feed-2")
                  + " +feed-2 +1 +\\d+ +feed-\\*=count:1,cpus:1,runout:SHARE +(PINNED|SHARED)$")
          .containsPattern("(?m)^" + tids.get("plain-x") + " +plain-x +" + before + " .* - +-$");

      CliRun twice = run("pin", "--pid", pid, "plain-*=cpus:0");
      assertThat(twice.status()).isEqualTo(1);
      assertThat(twice.err()).contains("--pid: " + pid + " (expected: a JVM without the agent");
      assertThat(mask(pid, tids.get("plain-x"))).as("refused").isEqualTo(before);

      Files.writeString(locks.resolve("cpu-9.lock"), "999999999\n2026.01.01 at 00:00:00 UTC");
      CliRun all = run("threads", "--all", "--lock-dir", locks.toString());
      assertThat(all.status()).as("%s", all).isZero();
      assertThat(all.out())
          .containsPattern("(?m)^1 +HELD +" + pid + " +java +.*feed-")
          .containsPattern(
              "(?m)^9 +STALE +- +- +- +cpu-9.lock: claims pid 999999999 .*not running");
      assertThat(c.exit()).isZero();
    }
  }

  @Test
  @Timeout(90)
  void shouldPinTheEventLoopsOfARunningReactorNettyServer() throws Exception {
    Path locks = Files.createDirectory(dir.resolve("locks"));
    try (ChildJvm c =
        ChildJvm.start(dir, List.of("-Daffinitykit.lock.dir=" + locks), ReactorServerMain.class)) {
      URI uri = URI.create("http://127.0.0.1:" + c.awaitLine("port ")[0] + "/");
      String before = get(uri); // a loop that runs before the agent: bound by pin
      String pid = Long.toString(c.pid());

      CliRun pin = run("pin", "--pid", pid, "reactor-http-*=count:1,cpus:1,runout:SHARE");
      assertThat(pin.status()).as("%s", pin).isZero();
      assertThat(pin.out()).containsPattern("(?m)^" + before + " +\\d+ +1 +reactor-http-\\*=");

      List<String> served = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        served.add(get(uri)); // a new client each: new connections, loops started after the pin
      }
      assertThat(served).allMatch(name -> name.startsWith("reactor-http-"));
      CliRun list = run("threads", "--pid", pid);
      List<String> loops =
          list.out().lines().filter(l -> l.matches("\\d+ +reactor-http-.*")).toList();
      assertThat(loops).as("%s", list).hasSizeGreaterThan(1);
      for (String loop : loops) {
        String[] w = loop.split(" +");
        assertThat(mask(pid, w[0])).as(loop).isEqualTo("1");
        assertThat(w[2]).as(loop).isEqualTo("1");
        assertThat(loop)
            .as("a rule and a lease")
            .matches(".* reactor-http-\\*=\\S+ +(PINNED|SHARED)$");
      }
      assertThat(served).allMatch(name -> list.out().contains(" " + name + " "));
      assertThat(c.exit()).isZero();
    }
  }

  @Test
  @Timeout(90)
  void shouldSayThatCarriersCannotBePinnedAfterStart() throws Exception {
    Path java = Path.of(System.getProperty("affinitykit.test.jdk25", JDK25), "bin", "java");
    assumeTrue(Files.isExecutable(java), java + ": no JDK 21+ for virtual threads");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-Daffinitykit.lock.dir=" + Files.createDirectory(dir.resolve("locks")),
                "-cp",
                Path.of("target", "test-classes").toAbsolutePath().toString(),
                CarrierTargetMain.class.getName())
            .redirectError(dir.resolve("err").toFile())
            .start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      assertThat(out.readLine()).isEqualTo("ready");
      String pid = Long.toString(p.pid());
      String before = mask(pid, pid);

      CliRun pin = run("pin", "--pid", pid, "ForkJoinPool-*=cpus:1");

      assertThat(pin.status()).as("%s", pin).isEqualTo(2);
      assertThat(pin.err())
          .matches(
              "ForkJoinPool-\\*: ForkJoinPool-\\d+-worker-\\d+, a carrier of the virtual-thread"
                  + " scheduler \\(expected: a carrier rule at start-up, -javaagent: the scheduler"
                  + " reads its size once\\)\n");
      try (var tasks = Files.list(Path.of("/proc", pid, "task"))) {
        assertThat(tasks.map(t -> t.getFileName().toString()))
            .allSatisfy(tid -> assertThat(mask(pid, tid)).isEqualTo(before));
      }
    } finally {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** {@return the body of GET {@code uri}, by a new client (a new connection)} */
  private static String get(URI uri) throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body();
  }

  private static CliRun run(String... args) {
    return AffinityKitCliTest.run(args);
  }

  private static String mask(String pid, String tid) throws Exception {
    return ProcTasks.mask(Files.readAllLines(Path.of("/proc", pid, "task", tid, "status")));
  }
}
