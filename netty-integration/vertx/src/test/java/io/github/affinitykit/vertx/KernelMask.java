package io.github.affinitykit.vertx;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The calling thread's name and Cpus_allowed_list, as the kernel says it. */
final class KernelMask {
  private KernelMask() {}

  /**
   * Sets the kit's pool to every CPU of this process (the default policy keeps one for
   * housekeeping), the way a user sets it, unless set already: before the shared kit is first made.
   */
  static void poolOfEveryCpu() {
    if (System.getProperty("affinitykit.pool") == null) {
      System.setProperty("affinitykit.pool", here().split("\\|")[1]);
    }
  }

  /** {@code <thread name>|<Cpus_allowed_list>} of the calling thread. */
  static String here() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
        if (line.startsWith("Cpus_allowed_list:")) {
          String mask = line.substring(line.indexOf(':') + 1).strip();
          return Thread.currentThread().getName() + "|" + mask;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalStateException("no Cpus_allowed_list in /proc/thread-self/status");
  }
}
