package io.github.affinitykit.core;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A separate JVM running a test main class on the test class path, talked to through lines on its
 * stdin and stdout; stderr goes to a file that failures quote. {@link #close()} kills it.
 */
public final class ChildJvm implements AutoCloseable {
  private final Process process;
  private final BufferedReader out;
  private final PrintWriter in;
  private final Path err;

  private ChildJvm(Process process, Path err) {
    this.process = process;
    this.err = err;
    this.out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
  }

  /**
   * How a child is started: the command that runs {@code java} (empty: none; {@code setpriv ...} to
   * run it as another user), its class path, and variables added to this JVM's environment.
   *
   * @param launcher the words before {@code java}, each given as is
   * @param classPath the child's class path
   * @param env variables set in the child's environment on top of this JVM's
   */
  public record Launch(List<String> launcher, String classPath, Map<String, String> env) {
    /** As this JVM's user, on this JVM's class path and environment. */
    public static Launch plain() {
      return new Launch(List.of(), System.getProperty("java.class.path"), Map.of());
    }
  }

  /** Starts {@code main} with {@code jvmArgs} and {@code args}; stderr to {@code workDir}. */
  public static ChildJvm start(Path workDir, List<String> jvmArgs, Class<?> main, String... args)
      throws IOException {
    return start(workDir, Launch.plain(), jvmArgs, main, args);
  }

  /** Starts {@code main} as {@code launch} says, with {@code jvmArgs} and {@code args}. */
  public static ChildJvm start(
      Path workDir, Launch launch, List<String> jvmArgs, Class<?> main, String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>(launch.launcher());
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("--enable-native-access=ALL-UNNAMED");
    cmd.add("-Xshare:off");
    cmd.add("-cp");
    cmd.add(launch.classPath());
    cmd.addAll(jvmArgs);
    cmd.add(main.getName());
    cmd.addAll(List.of(args));
    Path err = Files.createTempFile(workDir, main.getSimpleName(), ".err");
    ProcessBuilder b = new ProcessBuilder(cmd).redirectError(err.toFile());
    b.environment().putAll(launch.env());
    return new ChildJvm(b.start(), err);
  }

  public long pid() {
    return process.pid();
  }

  /** Reads stdout until a line starting with {@code prefix}; returns the words after it. */
  public String[] awaitLine(String prefix) throws IOException {
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      if (line.startsWith(prefix)) {
        return line.substring(prefix.length()).trim().split(" ");
      }
    }
    throw new IllegalStateException(
        "child " + pid() + " ended before printing " + prefix + "; stderr:\n" + stderr());
  }

  /** Sends one line to the child's stdin. */
  public void send(String line) {
    in.println(line);
  }

  /** Asks the child to exit ("exit" on stdin) and returns its exit code. */
  public int exit() throws InterruptedException {
    send("exit");
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("child " + pid() + " did not exit; stderr:\n" + stderr());
    }
    return process.exitValue();
  }

  /** Kills the child with SIGKILL and waits for it to be gone. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  public String stderr() {
    try {
      return Files.readString(err);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

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
