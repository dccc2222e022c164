package io.github.affinitykit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent jar on a child JVM that knows nothing of it ({@link AgentTargetMain}), each with its
 * own lock directory: every matched thread's kernel mask is read back from {@code
 * /proc/<pid>/task/<tid>/status}. Needs CPUs 0 and 1.
 */
@EnabledOnOs(OS.LINUX)
class AgentIT {
  @TempDir Path dir;

  @BeforeEach
  void needsTwoCpus() {
    ChildJvm.assumeCpus0And1();
  }

  @Test
  @Timeout(120)
  void shouldPinNewRunningAndRenamedThreadsByName() throws Exception {
    String rules = "worker-*=count:1,cpus:1,runout:SHARE;Finalizer=cpus:0";
    try (ChildJvm c = child(dir, List.of(agent(rules), "-Daffinitykit.agent.verbose=true"))) {
      assertThat(c.await("first worker-a ")).as("%s", c.lines()).isEqualTo("first worker-a 1");
      assertThat(c.await("first worker-b "))
          .as("a subclass overriding run()")
          .isEqualTo("first worker-b 1");
      String plain = c.await("first plain-c ");
      String a = tid(c, "worker-a");
      String b = tid(c, "worker-b");
      String cc = tid(c, "plain-c");
      String d = tid(c, "plain-d");
      c.await("ready");
      c.await("affinity-agent: worker-d (tid " + d + "): SHARED cpu 1");
      c.await("affinity-agent: Finalizer (tid ");
      assertThat(c.mask(a)).isEqualTo("1");
      assertThat(c.mask(b)).isEqualTo("1");
      assertThat(c.mask(d)).as("renamed by main into worker-*").isEqualTo("1");
      assertThat(c.mask(c.tidOf("Finalizer"))).as("running before the agent").isEqualTo("0");
      assertThat(c.mask(cc))
          .as("matches no rule")
          .isEqualTo(c.mask("" + c.pid()))
          .isNotEqualTo("1");
      assertThat(plain).as("%s", c.lines()).isEqualTo("first plain-c " + c.mask(cc));
      assertThat(c.await("first kid-a "))
          .as("started by pinned worker-a, named by no rule: the process's mask, not cpu 1")
          .isEqualTo("first kid-a " + c.mask("" + c.pid()));
      // worker-a and worker-b start together: whichever binds first holds cpu 1, the other shares
      // it
      String pinnedA = "affinity-agent: worker-a (tid " + a + "): PINNED cpu 1";
      String sharedB = "affinity-agent: worker-b (tid " + b + "): SHARED cpu 1";
      String pinnedB = "affinity-agent: worker-b (tid " + b + "): PINNED cpu 1";
      String sharedA = "affinity-agent: worker-a (tid " + a + "): SHARED cpu 1";
      boolean aFirst = c.lines().stream().anyMatch(l -> l.startsWith(pinnedA));
      assertThat(c.lines()).anyMatch(l -> l.startsWith(aFirst ? sharedB : pinnedB));
      assertThat(c.lines()).anyMatch(l -> l.startsWith(aFirst ? pinnedA : sharedA));
      assertThat(c.quit()).isZero();
    }
  }

  @Test
  @Timeout(120)
  void shouldRunTheApplicationWithBadRulesAndSayEachOnce() throws Exception {
    try (ChildJvm c = child(dir, List.of(agent("bogus;x-*=count:0;worker-a=cpus:1")))) {
      assertThat(c.await("first worker-a ")).as("%s", c.lines()).isEqualTo("first worker-a 1");
      c.await("ready");
      assertThat(c.quit()).isZero();
      assertThat(c.lines())
          .filteredOn(l -> l.contains("bogus"))
          .containsExactly(
              "affinity-agent: bogus (expected: <thread-name glob>=<group rule>); rule left out,"
                  + " the application runs");
      assertThat(c.lines())
          .filteredOn(l -> l.contains("x-*"))
          .containsExactly(
              "affinity-agent: x-*: count:0 (expected: a positive number of CPUs); rule left out,"
                  + " the application runs");
    }
  }

  @Test
  @Timeout(120)
  void shouldStartTheApplicationWithoutRules() throws Exception {
    try (ChildJvm c = child(dir, List.of("-javaagent:" + ChildJvm.AGENT_JAR))) {
      String first = c.await("first worker-a ");
      c.await("ready");
      assertThat(first).isEqualTo("first worker-a " + c.mask("" + c.pid()));
      assertThat(c.quit()).isZero();
      assertThat(c.lines()).filteredOn(l -> l.startsWith("affinity-agent:")).hasSize(1);
    }
  }

  @Test
  @Timeout(120)
  void shouldReadTheRulesFromAFile() throws Exception {
    Path rules =
        Files.writeString(
            dir.resolve("rules"), "# one thread each\nworker-a=cpus:1\n\nplain-c=cpus:0\n");
    try (ChildJvm c = child(dir, List.of(agent("@" + rules)))) {
      assertThat(c.await("first worker-a ")).as("%s", c.lines()).isEqualTo("first worker-a 1");
      assertThat(c.await("first plain-c ")).as("%s", c.lines()).isEqualTo("first plain-c 0");
      c.await("ready");
      assertThat(c.quit()).isZero();
    }
  }

  @Test
  @Timeout(120)
  void shouldLoadThroughJavaToolOptions() throws Exception {
    String options =
        "-Daffinitykit.lock.dir="
            + dir
            + " "
            + agent("worker-a=cpus:1"); // one thread: no race for the one CPU
    try (ChildJvm c = child(dir, List.of(), Map.of("JAVA_TOOL_OPTIONS", options))) {
      assertThat(c.await("first worker-a ")).as("%s", c.lines()).isEqualTo("first worker-a 1");
      c.await("ready");
      assertThat(c.quit()).isZero();
    }
  }

  private static String agent(String rules) {
    return ChildJvm.agent(rules);
  }

  /**
   * {@link AgentTargetMain} in a child JVM with {@code jvmArgs}, its lock directory {@code dir}.
   */
  private static ChildJvm child(Path dir, List<String> jvmArgs) throws IOException {
    List<String> args = new ArrayList<>(jvmArgs);
    args.add(0, "-Daffinitykit.lock.dir=" + dir);
    return child(dir, args, Map.of());
  }

  private static ChildJvm child(Path dir, List<String> jvmArgs, Map<String, String> env)
      throws IOException {
    String classes = Path.of("target", "test-classes").toAbsolutePath().toString();
    return ChildJvm.start(dir, jvmArgs, classes, AgentTargetMain.class.getName(), List.of(), env);
  }

  /** The kernel id {@link AgentTargetMain} printed for {@code thread}. */
  private static String tid(ChildJvm c, String thread) throws InterruptedException {
    return c.await("tid " + thread + " ").substring(("tid " + thread + " ").length());
  }
}
