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

  /** Starts {@code main} with {@code jvmArgs} and {@code args}; stderr to {@code workDir}. */
  public static ChildJvm start(Path workDir, List<String> jvmArgs, Class<?> main, String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("--enable-native-access=ALL-UNNAMED");
    cmd.add("-Xshare:off");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.addAll(jvmArgs);
    cmd.add(main.getName());
    cmd.addAll(List.of(args));
    Path err = Files.createTempFile(workDir, main.getSimpleName(), ".err");
    Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
    return new ChildJvm(p, err);
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
