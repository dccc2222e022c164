package io.github.affinitykit.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The kernel's view of file locks ({@code /proc/locks}), read without opening the locked file: the
 * evidence of which lock a process holds.
 */
public final class ProcLocks {
  private ProcLocks() {}

  /**
   * Returns the granted locks on {@code file}'s inode as {@code "POSIX ADVISORY WRITE <pid> 0 EOF"}
   * (lock class, mode, type, pid, range).
   */
  public static List<String> on(Path file) throws IOException {
    long inode = (Long) Files.getAttribute(file, "unix:ino");
    try (Stream<String> lines = Files.lines(Path.of("/proc/locks"))) {
      return lines
          .map(l -> l.trim().split("\\s+"))
          .filter(f -> f.length >= 8 && !f[1].equals("->"))
          .filter(f -> f[5].endsWith(":" + inode))
          .map(f -> String.join(" ", f[1], f[2], f[3], f[4], f[6], f[7]))
          .collect(Collectors.toList());
    }
  }

  /** Returns how many descriptors of this process have {@code file} open (its path, exactly). */
  public static long descriptorsOf(Path file) throws IOException {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.filter(fd -> file.toString().equals(readLink(fd))).count();
    }
  }

  private static String readLink(Path link) {
    try {
      return Files.readSymbolicLink(link).toString();
    } catch (IOException e) {
      return "";
    }
  }
}
