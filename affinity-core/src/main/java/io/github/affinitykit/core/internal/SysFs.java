package io.github.affinitykit.core.internal;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuSetFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Reads kernel pseudo-files ({@code /sys}, {@code /proc}) under a root directory: {@code /} in
 * production, a fixture tree in tests, a tree someone else made ({@code doctor --root}). Absent
 * files are {@code Optional.empty()}, never an error. Every read is bounded and type-checked
 * ({@link HostFile}); a refused file reads as absent and {@link #refusals()} names it and the rule.
 *
 * <p>Thread safety: safe to share; the refusals are kept in a synchronised set.
 */
public final class SysFs {
  /** The most refusals kept: a tree of thousands of FIFOs says so in the first hundred. */
  private static final int MAX_REFUSALS = 100;

  private final Path root;
  private final Set<String> refusals = new LinkedHashSet<>(); // guarded by itself
  private volatile Optional<Path> tree; // the root's real path, null until first needed

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
   * The file's text without trailing whitespace and NULs (some 5.15-rc kernels end bitmap files
   * with a NUL), or empty if absent or refused ({@link #raw}).
   */
  public Optional<String> read(String absolute) {
    return raw(absolute).map(SysFs::trimEnd);
  }

  /**
   * The file's exact text, or empty if it does not exist, cannot be read, or is refused ({@link
   * HostFile}); a refusal is kept for {@link #refusals()}.
   */
  public Optional<String> raw(String absolute) {
    Path file;
    try {
      file = path(absolute);
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
    return HostFile.read(file, tree(), KernelLimits.bytes(absolute), this::refuse);
  }

  /** What was refused so far, in order, at most 100: each names the file, what it was, the rule. */
  public List<String> refusals() {
    synchronized (refusals) {
      return List.copyOf(refusals);
    }
  }

  private void refuse(String why) {
    synchronized (refusals) {
      if (refusals.size() < MAX_REFUSALS) {
        refusals.add(why);
      }
    }
  }

  /** The real path of a root other than {@code /}, which last links must stay in; else null. */
  private Path tree() {
    Optional<Path> t = tree;
    if (t == null) {
      Path real;
      try {
        real = root.toRealPath();
      } catch (IOException | SecurityException e) {
        real = root.toAbsolutePath().normalize();
      }
      t = real.getParent() == null ? Optional.empty() : Optional.of(real);
      tree = t;
    }
    return t.orElse(null);
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
   * The file parsed as a kernel cpu list, or empty if absent. {@code "(null)"} (a cpumask never
   * allocated: Debian 12's 6.1 {@code nohz_full} without {@code nohz_full=}) means no CPU.
   */
  public Optional<CpuSet> cpuList(String absolute) {
    return read(absolute).map(SysFs::parseList);
  }

  private static CpuSet parseList(String text) {
    return text.trim().equals("(null)") ? CpuSet.empty() : hostList(text);
  }

  /**
   * Parses a host file's cpu list ({@link CpuSet#parse(String)}) naming no CPU at or above {@link
   * KernelLimits#CPUS}.
   *
   * @throws CpuSetFormatException if it does not parse, or names such a CPU
   */
  public static CpuSet hostList(String text) {
    return belowLimit(CpuSet.parse(text), text, "cpu list");
  }

  /**
   * Parses a host file's cpu mask ({@link CpuSet#parseMask(String)}) naming no CPU at or above
   * {@link KernelLimits#CPUS}.
   *
   * @throws CpuSetFormatException if it does not parse, or names such a CPU
   */
  public static CpuSet hostMask(String text) {
    return belowLimit(CpuSet.parseMask(text), text, "cpu mask");
  }

  private static CpuSet belowLimit(CpuSet set, String text, String kind) {
    int last = set.last();
    if (last >= KernelLimits.CPUS) {
      throw new CpuSetFormatException(
          kind,
          text,
          Math.max(0, text.indexOf(Integer.toString(last))),
          String.format(
              "cpu %d out of range (expected: < %d, the kernel's largest NR_CPUS)",
              last, KernelLimits.CPUS));
    }
    return set;
  }

  /**
   * The file as a set of CPUs: a cpu list if its name ends with {@code list}, else a hex mask;
   * empty if absent or malformed (one garbled file is not worth failing a host model for).
   */
  public Optional<CpuSet> cpus(String absolute) {
    Optional<String> s = read(absolute);
    if (s.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(absolute.endsWith("list") ? parseList(s.get()) : hostMask(s.get()));
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

  /** The number after {@code prefix} in an entry name ({@code cpu12}: 12), else -1. */
  public static int index(String name, String prefix) {
    int n = name.length() - prefix.length();
    if (n <= 0 || n > 9 || !name.startsWith(prefix)) {
      return -1;
    }
    return (int) ProcNumbers.counter(name.substring(prefix.length()));
  }

  /**
   * The index of a {@code prefixN} entry of {@code dir} ({@link #index(String, String)}) if below
   * {@code limit}; else -1, with a refusal for an index at or above the limit.
   */
  public int index(String dir, String name, String prefix, int limit) {
    int n = index(name, prefix);
    if (n >= limit) {
      refuse(
          String.format(
              "%s: %s %d (expected: < %d, the kernel's limit): left out",
              path(dir + "/" + name), prefix, n, limit));
      return -1;
    }
    return n;
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

  /** Names of the entries of a directory, sorted; empty if absent or unreadable. */
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
