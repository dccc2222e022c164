package io.github.affinitykit.core.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The task file core reads itself: the calling thread's id ({@code /proc/thread-self}); the
 * artifacts read every other task file.
 *
 * <p>Thread safety: immutable; safe to share and to call from any thread.
 */
public final class ThreadFiles {
  private final SysFs fs;

  /** A reader of the procfs under {@code root} ({@code /}, or a fixture tree). */
  public ThreadFiles(Path root) {
    this.fs = new SysFs(Objects.requireNonNull(root, "root"));
  }

  /** {@return a reader of this machine's {@code /proc}} */
  public static ThreadFiles live() {
    return new ThreadFiles(Path.of("/"));
  }

  /** {@return the {@code /proc/thread-self} link: {@code <pid>/task/<tid>} (Linux 3.17+)} */
  public Optional<String> selfLink() {
    try {
      return Optional.of(Files.readSymbolicLink(fs.path("/proc/thread-self")).toString());
    } catch (IOException | UnsupportedOperationException | InvalidPathException e) {
      return Optional.empty();
    }
  }

  /** {@return the calling thread's kernel id (TID), the last name of {@link #selfLink()}} */
  public OptionalInt currentThreadId() {
    int tid = selfLink().map(s -> id(s.substring(s.lastIndexOf('/') + 1))).orElse(-1);
    return tid < 0 ? OptionalInt.empty() : OptionalInt.of(tid);
  }

  /** Parses a pid or tid: its decimal value if it fits an int, else -1. */
  public static int id(String s) {
    long n = s.length() > 10 ? -1 : ProcNumbers.counter(s);
    return n > Integer.MAX_VALUE ? -1 : (int) n;
  }
}
