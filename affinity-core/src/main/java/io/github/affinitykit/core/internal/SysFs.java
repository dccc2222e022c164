package io.github.affinitykit.core.internal;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.CpuSetFormatException;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads kernel pseudo-files ({@code /sys}, {@code /proc}) under a root directory: {@code /} in
 * production, an unpacked fixture tree in tests. Absent files are {@code Optional.empty()}, never
 * an error: most of these files exist only on some kernels.
 *
 * <p>Thread safety: immutable; safe to share.
 */
public final class SysFs {
  /** Bytes asked for by the first read: a sysfs attribute is at most a page. */
  private static final int FIRST_READ = 4096;

  private final Path root;

  /** Reads the host whose {@code /proc} and {@code /sys} are under {@code root}. */
  public SysFs(Path root) {
    this.root = Objects.requireNonNull(root, "root");
  }

  /** Returns the root directory. */
  public Path root() {
    return root;
  }

  /**
   * Resolves an absolute kernel path ({@code /sys/...}) under the root.
   *
   * @throws InvalidPathException if the path holds a NUL: names read from kernel files ({@code
   *     /proc/self/cgroup}, {@code /proc/self/mounts}) are only as good as those files
   */
  public Path path(String absolute) {
    return root.resolve(absolute.startsWith("/") ? absolute.substring(1) : absolute);
  }

  /** Whether the path exists; false for a path that cannot name a file (a NUL in it). */
  public boolean exists(String absolute) {
    try {
      return Files.exists(path(absolute));
    } catch (InvalidPathException e) {
      return false;
    }
  }

  /**
   * The file's text with trailing whitespace and NUL characters removed, or empty if the file does
   * not exist (or the path cannot name a file). Some 5.15-rc kernels end bitmap files ({@code
   * *_cpus_list}, {@code nodeN/cpulist}) with a NUL byte: the 128arm fixture has them.
   *
   * <p>One {@code open}, {@code read} until end of file, {@code close}: no {@code fstat} for a size
   * that sysfs does not know anyway (a probe of a 128-CPU host reads about two thousand files).
   */
  public Optional<String> read(String absolute) {
    try (InputStream in = new FileInputStream(path(absolute).toFile())) {
      byte[] buf = new byte[FIRST_READ];
      int n = 0;
      for (int r; (r = in.read(buf, n, buf.length - n)) >= 0; ) {
        n += r;
        if (n == buf.length) {
          buf = Arrays.copyOf(buf, buf.length * 2);
        }
      }
      return Optional.of(trimEnd(new String(buf, 0, n, StandardCharsets.UTF_8)));
    } catch (InvalidPathException e) {
      return Optional.empty();
    } catch (IOException e) {
      // absent, EACCES, EINVAL on some sysfs attributes, or a directory: unreadable, not fatal.
      return Optional.empty();
    }
  }

  private static String trimEnd(String s) {
    int end = s.length();
    while (end > 0 && (s.charAt(end - 1) == '\0' || Character.isWhitespace(s.charAt(end - 1)))) {
      end--;
    }
    return s.substring(0, end);
  }

  /** The file's lines, or an empty list if it does not exist. */
  public List<String> lines(String absolute) {
    return read(absolute).map(s -> List.of(s.split("\n", -1))).orElse(List.of());
  }

  /**
   * The file parsed as a kernel cpu list, or empty if absent. A cpumask the kernel never allocated
   * reads {@code "(null)"}, padded: Debian 12's 6.1 prints that for {@code nohz_full} when the
   * kernel has {@code CONFIG_NO_HZ_FULL} but the command line names no {@code nohz_full=} (seen in
   * the kernel tests' guests); it means no CPU.
   */
  public Optional<CpuSet> cpuList(String absolute) {
    return read(absolute).map(SysFs::parseList);
  }

  private static CpuSet parseList(String text) {
    return text.trim().equals("(null)") ? CpuSet.empty() : CpuSet.parse(text);
  }

  /**
   * The file parsed as a set of CPUs: a cpu list if its name ends with {@code list} ({@code
   * core_cpus_list}, {@code cpulist}), the hex mask form otherwise ({@code core_cpus}, {@code
   * cpumap}, {@code shared_cpu_map}); empty if absent or malformed: one garbled pseudo-file is not
   * worth failing a whole host model for.
   */
  public Optional<CpuSet> cpus(String absolute) {
    Optional<String> s = read(absolute);
    if (s.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          absolute.endsWith("list") ? parseList(s.get()) : CpuSet.parseMask(s.get()));
    } catch (CpuSetFormatException e) {
      return Optional.empty();
    }
  }

  /** The file parsed as a kernel cpu list, or empty if absent or malformed. */
  public Optional<CpuSet> cpuListOrEmpty(String absolute) {
    try {
      return cpuList(absolute);
    } catch (CpuSetFormatException e) {
      return Optional.empty();
    }
  }

  /** The first of {@code dir/name} for the names, in order, that reads as a set of CPUs. */
  public Optional<CpuSet> firstCpus(String dir, String... names) {
    for (String name : names) {
      Optional<CpuSet> set = cpus(dir + "/" + name);
      if (set.isPresent()) {
        return set;
      }
    }
    return Optional.empty();
  }

  /**
   * The number after {@code prefix} in a directory entry name ({@code cpu12} gives 12), or -1 if
   * the name is not the prefix followed by decimal digits only ({@code cpufreq}, {@code cpu}).
   */
  public static int index(String name, String prefix) {
    int n = name.length() - prefix.length();
    if (n <= 0 || n > 9 || !name.startsWith(prefix)) {
      return -1;
    }
    for (int i = prefix.length(); i < name.length(); i++) {
      if (name.charAt(i) < '0' || name.charAt(i) > '9') {
        return -1;
      }
    }
    return Integer.parseInt(name.substring(prefix.length()));
  }

  /** The file parsed as a decimal int, or empty if absent or not a number. */
  public OptionalInt integer(String absolute) {
    Optional<String> s = read(absolute);
    if (s.isEmpty()) {
      return OptionalInt.empty();
    }
    try {
      return OptionalInt.of(Integer.parseInt(s.get().trim()));
    } catch (NumberFormatException e) {
      return OptionalInt.empty();
    }
  }

  /**
   * Names of the entries of a directory, sorted; empty if absent, not a directory, unreadable or
   * not a valid path.
   */
  public List<String> list(String absolute) {
    String[] names;
    try {
      names = path(absolute).toFile().list(); // opendir + getdents: no stat, no stream
    } catch (InvalidPathException e) {
      return List.of();
    }
    if (names == null) {
      return List.of();
    }
    Arrays.sort(names);
    return List.of(names);
  }
}
