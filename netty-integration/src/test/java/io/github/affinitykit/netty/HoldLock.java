package io.github.affinitykit.netty;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A child JVM that holds a lock file as another process would (OpenHFT's whole-file lock): prints
 * {@code held}, then keeps the lock until its stdin closes. Tests start it with {@link #start}.
 */
public final class HoldLock {
  private HoldLock() {}

  /** Locks {@code args[0]} until stdin ends. */
  public static void main(String[] args) throws IOException {
    try (FileChannel ch =
        FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      FileLock lock = ch.lock();
      System.out.println(lock.isValid() ? "held" : "not held");
      System.out.flush();
      System.in.transferTo(java.io.OutputStream.nullOutputStream());
    }
  }

  /** Starts a child JVM holding {@code file}; returns once it holds it. Destroy it when done. */
  static Process start(Path file) throws IOException {
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                HoldLock.class.getName(),
                file.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String line =
        new java.io.BufferedReader(
                new java.io.InputStreamReader(
                    p.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))
            .readLine();
    if (!"held".equals(line)) {
      p.destroyForcibly();
      throw new IllegalStateException("lock holder: " + line + " (expected: held)");
    }
    return p;
  }
}
