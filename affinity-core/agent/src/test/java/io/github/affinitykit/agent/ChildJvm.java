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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A child JVM of the ITs, whose stdout and stderr are one stream of lines, read as they come; its
 * threads' kernel masks read back from {@code /proc/<pid>/task/<tid>/status} and their Java names
 * from a thread dump taken from outside ({@code jcmd <pid> Thread.print}). Closing it kills it.
 *
 * <p>Thread safety: confined to the test's thread (the reader thread only fills the queue).
 */
final class ChildJvm implements AutoCloseable {
  /** The agent jar this module builds. */
  static final Path AGENT_JAR = Path.of("target", "affinity-agent.jar").toAbsolutePath();

  // a thread's header in a thread dump: "name" ... nid=0x3039 (JDK 17) or nid=12345 (JDK 19+)
  private static final Pattern HEADER =
      Pattern.compile("^\"(.*)\" .*\\bnid=(0x[0-9a-fA-F]+|\\d+)\\b");

  private final Process process;
  private final BlockingQueue<String> queue = new LinkedBlockingQueue<>();
  private final List<String> seen = new ArrayList<>();
  private final Thread reader;

  private ChildJvm(Process process) {
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

  /**
   * Starts {@code java <jvmArgs> -cp <classpath> <main> <args>} in {@code dir}, with this JVM's
   * {@code JAVA_TOOL_OPTIONS} removed and {@code env} added.
   */
  static ChildJvm start(
      Path dir,
      List<String> jvmArgs,
      String classpath,
      String main,
      List<String> args,
      Map<String, String> env)
      throws IOException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    return start(java, dir, jvmArgs, classpath, main, args, env);
  }

  /** As {@link #start(Path, List, String, String, List, Map)}, on the JVM {@code java}. */
  static ChildJvm start(
      Path java,
      Path dir,
      List<String> jvmArgs,
      String classpath,
      String main,
      List<String> args,
      Map<String, String> env)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(java.toString());
    cmd.addAll(jvmArgs);
    cmd.addAll(List.of("-cp", classpath, main));
    cmd.addAll(args);
    ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true).directory(dir.toFile());
    b.environment().remove("JAVA_TOOL_OPTIONS");
    b.environment().putAll(env);
    return new ChildJvm(b.start());
  }

  /** Skips the test where this thread cannot pin, or CPUs 0 and 1 are not both reachable. */
  static void assumeCpus0And1() {
    AffinityBackend backend = AffinityBackend.detect();
    assumeTrue(backend.isSupported(), backend.reason());
    assumeTrue(backend.getAffinity(0).containsAll(CpuSet.of(0, 1)), "needs CPUs 0 and 1");
    assertThat(AGENT_JAR).exists();
  }

  /** {@return {@code -javaagent:} of this module's agent jar with {@code rules}} */
  static String agent(String rules) {
    return "-javaagent:" + AGENT_JAR + "=" + rules;
  }

  long pid() {
    return process.pid();
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

  /** {@return every line read so far, those waiting in the queue included} */
  List<String> lines() {
    queue.drainTo(seen);
    return seen;
  }

  /** The kernel id of the thread whose /proc name is {@code comm}. */
  String tidOf(String comm) throws IOException {
    for (String t : tids()) {
      if (Files.readString(task(t).resolve("comm")).strip().equals(comm)) {
        return t;
      }
    }
    throw new AssertionError(comm + ": no such thread in " + pid());
  }

  /** {@return the kernel ids of the child's threads now} */
  List<String> tids() throws IOException {
    try (var tasks = Files.list(Path.of("/proc/" + pid() + "/task"))) {
      return tasks.map(t -> t.getFileName().toString()).toList();
    }
  }

  /** {@return the kernel mask of thread {@code tid}: its Cpus_allowed_list} */
  String mask(String tid) throws IOException {
    for (String l : Files.readAllLines(task(tid).resolve("status"))) {
      if (l.startsWith("Cpus_allowed_list:")) {
        return l.substring(l.indexOf(':') + 1).strip();
      }
    }
    throw new AssertionError(tid + ": no Cpus_allowed_list");
  }

  /**
   * {@return kernel id to whole Java name of every thread in a thread dump taken now by {@code jcmd
   * <pid> Thread.print}, the JVM's own threads included}
   */
  Map<String, String> names() throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process p = new ProcessBuilder(jcmd.toString(), "" + pid(), "Thread.print").start();
    String dump = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("jcmd exits").isTrue();
    assertThat(p.exitValue()).as("jcmd %s Thread.print: %s", pid(), dump).isZero();
    Map<String, String> names = new HashMap<>();
    for (String line : dump.split("\n")) {
      Matcher m = HEADER.matcher(line);
      if (m.find()) {
        String nid = m.group(2);
        long tid =
            nid.startsWith("0x") ? Long.parseLong(nid.substring(2), 16) : Long.parseLong(nid);
        names.put(Long.toString(tid), m.group(1));
      }
    }
    return names;
  }

  private Path task(String tid) {
    return Path.of("/proc/" + pid() + "/task/" + tid);
  }

  /** Writes {@code line} to the child's stdin, which stays open. */
  void send(String line) {
    PrintWriter in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
    in.println(line);
  }

  /** Asks the child to exit; {@return its status}, every line read by then in {@link #lines()}. */
  int quit() throws InterruptedException {
    try (PrintWriter in =
        new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8)) {
      in.println("quit");
    }
    return exit();
  }

  /**
   * Waits for the child to exit by itself; {@return its status}, every line in {@link #lines()}.
   */
  int exit() throws InterruptedException {
    int status = process.waitFor();
    reader.join(TimeUnit.SECONDS.toMillis(30));
    queue.drainTo(seen);
    return status;
  }

  /** Kills the child and waits for it to be gone. */
  @Override
  public void close() {
    process.destroyForcibly();
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
