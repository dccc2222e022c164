package io.github.affinitykit.kernel.guest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child process of the guest program (a JVM of the project's jars), its output in a file, killed
 * with its descendants at the deadline.
 *
 * <p>Thread safety: not thread-safe; owned by the section that starts it.
 */
final class Child implements AutoCloseable {
  private final Process process;
  private final Path output;

  private Child(Process process, Path output) {
    this.process = process;
    this.output = output;
  }

  /** The guest's java with the guest classpath, then {@code args}. */
  static List<String> java(String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(System.getProperty("kernel.java"));
    cmd.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    cmd.addAll(List.of(args));
    return cmd;
  }

  /** Starts {@code command}, its output to {@code /tmp/<name>.out}. */
  static Child start(String name, List<String> command) throws IOException {
    Path out = Path.of("/tmp", name + ".out");
    Process p =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    return new Child(p, out);
  }

  /**
   * Waits up to {@code seconds}; returns the exit status, or -1 after killing it at the deadline.
   */
  int await(long seconds) throws InterruptedException {
    if (process.waitFor(seconds, TimeUnit.SECONDS)) {
      return process.exitValue();
    }
    close();
    return -1;
  }

  /** Asks it to stop (SIGTERM), waits up to {@code seconds}, then kills it; returns the exit. */
  int stop(long seconds) throws InterruptedException {
    process.destroy();
    return await(seconds);
  }

  /** The output so far, the last {@code max} characters. */
  String output(int max) throws IOException {
    String s = Files.exists(output) ? Files.readString(output, StandardCharsets.UTF_8) : "";
    return s.length() > max ? s.substring(s.length() - max) : s;
  }

  /** Kills it and its descendants. */
  @Override
  public void close() {
    List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
    tree.add(process.toHandle());
    tree.forEach(ProcessHandle::destroyForcibly);
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
