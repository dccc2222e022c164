package io.github.affinitykit.core;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Child process for the tests: another program holding an existing file {@code args[0]} with a
 * classic POSIX write lock (Java's {@code FileChannel}), without writing to it. Prints {@code
 * READY}, holds until "exit" or end of stdin.
 */
public final class PosixLockMain {
  private PosixLockMain() {}

  public static void main(String[] args) throws IOException {
    try (FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.WRITE);
        FileLock lock = channel.lock()) {
      System.out.println("READY " + lock.isValid());
      BufferedReader stdin =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = stdin.readLine(); line != null; line = stdin.readLine()) {
        if (line.equals("exit")) {
          break;
        }
      }
    }
  }
}
