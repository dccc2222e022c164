package io.github.affinitykit.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The calling thread's kernel id without a backend: from {@code /proc/thread-self}.
 *
 * <p>Thread safety: stateless.
 */
final class ThreadIds {
  private ThreadIds() {}

  /** Returns the calling thread's kernel id, or -1 where {@code /proc/thread-self} is unknown. */
  static int current() {
    try {
      Path link = Files.readSymbolicLink(Path.of("/proc/thread-self"));
      return Integer.parseInt(link.getFileName().toString());
    } catch (IOException | UnsupportedOperationException | NumberFormatException e) {
      return -1;
    }
  }
}
