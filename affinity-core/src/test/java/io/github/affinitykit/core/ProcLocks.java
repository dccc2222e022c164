package io.github.affinitykit.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
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
    String id = fileId(file);
    try (Stream<String> lines = Files.lines(Path.of("/proc/locks"))) {
      return lines
          .map(l -> l.trim().split("\\s+"))
          .filter(f -> f.length >= 8 && !f[1].equals("->"))
          .filter(f -> f[5].equals(id))
          .map(f -> String.join(" ", f[1], f[2], f[3], f[4], f[6], f[7]))
          .collect(Collectors.toList());
    }
  }

  /**
   * {@code file}'s device and inode as {@code /proc/locks} prints them, {@code "fd:01:1234"} (major
   * and minor in hex, at least two digits, the inode in decimal): an inode number alone also names
   * files of other file systems, whose locks other processes may hold.
   */
  static String fileId(Path file) throws IOException {
    long dev = (Long) Files.getAttribute(file, "unix:dev");
    long inode = (Long) Files.getAttribute(file, "unix:ino");
    long major = ((dev >>> 8) & 0xfffL) | ((dev >>> 32) & ~0xfffL);
    long minor = (dev & 0xffL) | ((dev >>> 12) & ~0xffL);
    return String.format(Locale.ROOT, "%02x:%02x:%d", major, minor, inode);
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
