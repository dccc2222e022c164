package io.github.affinitykit.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
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
  private static final Path JAR = Path.of("target", "affinity-agent.jar").toAbsolutePath();

  @TempDir Path dir;

  @BeforeEach
  void needsTwoCpus() {
    AffinityBackend backend = AffinityBackend.detect();
    assumeTrue(backend.isSupported(), backend.reason());
    assumeTrue(backend.getAffinity(0).containsAll(CpuSet.of(0, 1)), "needs CPUs 0 and 1");
    assertThat(JAR).exists();
  }

  @Test
  @Timeout(120)
  void shouldPinNewRunningAndRenamedThreadsByName() throws Exception {
    String rules = "worker-*=count:1,cpus:1,runout:SHARE;Finalizer=cpus:0";
    try (Child c = Child.start(dir, List.of(agent(rules), "-Daffinitykit.agent.verbose=true"))) {
      assertThat(c.await("first worker-a ")).as("%s", c.lines()).isEqualTo("first worker-a 1");
      assertThat(c.await("first worker-b "))
          .as("a subclass overriding run()")
          .isEqualTo("first worker-b 1");
      String plain = c.await("first plain-c ");
      String a = c.tid("worker-a");
      String b = c.tid("worker-b");
      String cc = c.tid("plain-c");
      String d = c.tid("plain-d");
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
    try (Child c = Child.start(dir, List.of(agent("bogus;x-*=count:0;worker-a=cpus:1")))) {
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
    try (Child c = Child.start(dir, List.of("-javaagent:" + JAR))) {
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
    try (Child c = Child.start(dir, List.of(agent("@" + rules)))) {
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
    try (Child c = Child.start(dir, List.of(), Map.of("JAVA_TOOL_OPTIONS", options))) {
      assertThat(c.await("first worker-a ")).as("%s", c.lines()).isEqualTo("first worker-a 1");
      c.await("ready");
      assertThat(c.quit()).isZero();
    }
  }

  private static String agent(String rules) {
    return "-javaagent:" + JAR + "=" + rules;
  }

  /**
   * A child JVM whose stdout and stderr are one stream of lines, read as they come; {@link
   * CarriersIT}'s too.
   */
  static final class Child implements AutoCloseable {
    private final Process process;
    private final BlockingQueue<String> queue = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();
    private final Thread reader;

    private Child(Process process) {
      this.process = process;
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
              "agent-it-reader");
      reader.setDaemon(true);
      reader.start();
    }

    static Child start(Path dir, List<String> jvmArgs) throws IOException {
      List<String> args = new ArrayList<>(jvmArgs);
      args.add(0, "-Daffinitykit.lock.dir=" + dir);
      return start(dir, args, Map.of());
    }

    static Child start(Path dir, List<String> jvmArgs, Map<String, String> env) throws IOException {
      Path java = Path.of(System.getProperty("java.home"), "bin", "java");
      return start(java, dir, jvmArgs, AgentTargetMain.class, List.of(), env);
    }

    /**
     * Starts {@code main} of the test classes with {@code args} on {@code java}, in {@code dir}.
     */
    static Child start(
        Path java,
        Path dir,
        List<String> jvmArgs,
        Class<?> main,
        List<String> args,
        Map<String, String> env)
        throws IOException {
      List<String> cmd = new ArrayList<>();
      cmd.add(java.toString());
      cmd.addAll(jvmArgs);
      cmd.addAll(List.of("-cp", Path.of("target", "test-classes").toAbsolutePath().toString()));
      cmd.add(main.getName());
      cmd.addAll(args);
      ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true).directory(dir.toFile());
      b.environment().remove("JAVA_TOOL_OPTIONS");
      b.environment().putAll(env);
      return new Child(b.start());
    }

    long pid() {
      return process.pid();
    }

    /** Writes {@code line} to the child's stdin, which stays open. */
    void send(String line) {
      PrintWriter in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
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

    String tid(String thread) throws InterruptedException {
      return await("tid " + thread + " ").substring(("tid " + thread + " ").length());
    }

    /** The kernel id of the thread whose /proc name is {@code comm}. */
    String tidOf(String comm) throws IOException {
      try (var tasks = Files.list(Path.of("/proc/" + pid() + "/task"))) {
        for (Path t : (Iterable<Path>) tasks::iterator) {
          if (Files.readString(t.resolve("comm")).strip().equals(comm)) {
            return t.getFileName().toString();
          }
        }
      }
      throw new AssertionError(comm + ": no such thread in " + pid());
    }

    String mask(String tid) throws IOException {
      for (String l : Files.readAllLines(Path.of("/proc/" + pid() + "/task/" + tid + "/status"))) {
        if (l.startsWith("Cpus_allowed_list:")) {
          return l.substring(l.indexOf(':') + 1).strip();
        }
      }
      throw new AssertionError(tid + ": no Cpus_allowed_list");
    }

    /**
     * Asks the child to exit; {@return its status}, every line read by then in {@link #lines()}.
     */
    int quit() throws InterruptedException {
      try (PrintWriter in =
          new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8)) {
        in.println("quit");
      }
      return waitFor();
    }

    /** Waits for the child to exit; {@return its status}, every line read by then in lines(). */
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
      process.destroyForcibly();
    }
  }
}
