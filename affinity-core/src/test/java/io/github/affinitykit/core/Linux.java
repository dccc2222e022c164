package io.github.affinitykit.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads of the live kernel, written independently of the code under test. */
public final class Linux {
  private Linux() {}

  /** The calling thread's Cpus_allowed_list from /proc/thread-self/status. */
  public static String cpusAllowedList() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
        if (line.startsWith("Cpus_allowed_list:")) {
          return line.split(":", 2)[1].trim();
        }
      }
      throw new IllegalStateException("no Cpus_allowed_list");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
