package io.github.affinitykit.core.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * The mount table of this process ({@code /proc/self/mounts}, else {@code /proc/mounts}) under a
 * root, and the cgroup mounts in it.
 *
 * <p>Thread safety: immutable.
 */
public final class Mounts {
  /**
   * One mount.
   *
   * @param point where it is mounted, unescaped
   * @param type the filesystem type ({@code cgroup2}, {@code cgroup}, {@code cpuset}, ...)
   * @param options the mount options
   */
  public record Mount(String point, String type, List<String> options) {
    /** Copies. */
    public Mount {
      options = List.copyOf(options);
    }

    /**
     * Whether this is a cgroup v1 hierarchy holding the cpuset controller: a {@code cgroup} mount
     * with the {@code cpuset} option, or the legacy {@code cpuset} filesystem.
     */
    public boolean cpusetV1() {
      return type.equals("cpuset") || (type.equals("cgroup") && options.contains("cpuset"));
    }

    /** Whether cpuset files carry no {@code cpuset.} prefix here (legacy fs, {@code noprefix}). */
    public boolean noPrefix() {
      return type.equals("cpuset") || options.contains("noprefix");
    }
  }

  private final List<Mount> mounts;

  private Mounts(List<Mount> mounts) {
    this.mounts = List.copyOf(mounts);
  }

  /** Reads the mount table under {@code fs}'s root; empty if there is none. */
  public static Mounts read(SysFs fs) {
    List<String> lines = fs.lines("/proc/self/mounts");
    if (lines.isEmpty()) {
      lines = fs.lines("/proc/mounts");
    }
    List<Mount> out = new ArrayList<>();
    for (String line : lines) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 4) {
        out.add(new Mount(unescape(f[1]), f[2], List.of(f[3].split(","))));
      }
    }
    return new Mounts(out);
  }

  /** Every mount, in table order. */
  public List<Mount> all() {
    return mounts;
  }

  /** {@code /proc/mounts} escapes space, tab, newline and backslash as octal. */
  private static String unescape(String s) {
    return s.replace("\\040", " ")
        .replace("\\011", "\t")
        .replace("\\012", "\n")
        .replace("\\134", "\\");
  }

  /** Joins a mount point and a cgroup path ({@code "/"} or empty: the mount point itself). */
  public static String join(String a, String b) {
    if (b.isEmpty() || b.equals("/")) {
      return a;
    }
    return (a.endsWith("/") ? a.substring(0, a.length() - 1) : a)
        + (b.startsWith("/") ? b : "/" + b);
  }
}
