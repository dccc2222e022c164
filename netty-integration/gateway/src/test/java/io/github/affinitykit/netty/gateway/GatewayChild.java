package io.github.affinitykit.netty.gateway;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** {@link GatewayMain} in a child JVM, as a user runs it; lock files and stderr in {@code dir}. */
final class GatewayChild implements AutoCloseable {
  final Process process;
  final BufferedReader out;
  private final Path stderr;

  private GatewayChild(Process process, Path stderr) {
    this.process = process;
    this.stderr = stderr;
    this.out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  /** Starts {@code java <jvm> GatewayMain <args>} with {@code env} added to this environment. */
  static GatewayChild start(Path dir, List<String> jvm, Map<String, String> env, String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("--enable-native-access=ALL-UNNAMED");
    cmd.add("-XX:+ExitOnOutOfMemoryError");
    cmd.add("-Djava.io.tmpdir=" + dir); // its cpu-N.lock files stay in this test's directory
    cmd.addAll(jvm);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(GatewayMain.class.getName());
    cmd.addAll(List.of(args));
    Path err = dir.resolve("stderr-" + System.nanoTime() + ".txt");
    ProcessBuilder b = new ProcessBuilder(cmd).redirectError(err.toFile());
    b.environment().remove("AFFINITYKIT_POOL");
    b.environment().putAll(env);
    return new GatewayChild(b.start(), err);
  }

  /** Reads the first line, {@code gateway listening on HOST:PORT}, and returns the port. */
  int awaitPort() throws IOException {
    String listening = out.readLine();
    if (listening == null || !listening.startsWith("gateway listening on 127.0.0.1:")) {
      throw new AssertionError("first line: " + listening + "; stderr: " + stderr());
    }
    return Integer.parseInt(listening.substring(listening.lastIndexOf(':') + 1));
  }

  /** Waits up to {@code seconds} for the exit; returns the status, or -1 if it still runs. */
  int awaitExit(long seconds) throws InterruptedException {
    return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : -1;
  }

  String stderr() throws IOException {
    return Files.readString(stderr);
  }

  @Override
  public void close() {
    try {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
