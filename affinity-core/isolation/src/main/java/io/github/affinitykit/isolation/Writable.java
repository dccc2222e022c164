package io.github.affinitykit.isolation;

import io.github.affinitykit.core.internal.Mounts;
import io.github.affinitykit.core.internal.SysFs;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one rule for which paths an isolation may write: the planners build every path they write
 * through it ({@link #kitDir}, {@link #kitFile}, {@link #homeFile}, {@link #ancestorFile}, {@link
 * #irqAffinity}), and a journal is trusted only if every path its steps name passes {@link
 * #refusal(String)}, so that a planted journal cannot steer a root {@code release} to any other
 * file and a legitimate one is never refused. The paths:
 *
 * <ul>
 *   <li>under a cgroup2 mount of this host: a cgroup {@code affinitykit-<id>} and its {@code
 *       cgroup.type}, {@code cgroup.threads}, {@code cpuset.cpus}, {@code cpuset.cpus.exclusive},
 *       {@code cpuset.cpus.partition}; any cgroup's (the home's) {@code cgroup.subtree_control},
 *       {@code cgroup.type}, {@code cgroup.threads}, and (an ancestor's) {@code
 *       cpuset.cpus.exclusive};
 *   <li>under a cgroup v1 cpuset mount: the cpusets {@code affinitykit-<id>-iso} and {@code -rest}
 *       and their {@code [cpuset.]cpus}, {@code [cpuset.]mems}, {@code tasks}; any cpuset's (the
 *       home's) {@code tasks};
 *   <li>{@code /proc/irq/<n>/smp_affinity[_list]}, {@code /proc/irq/default_smp_affinity} and the
 *       unbound workqueue cpumask {@code /sys/devices/virtual/workqueue/cpumask}.
 * </ul>
 *
 * A path must be absolute and normal: no empty, {@code .} or {@code ..} component.
 *
 * <p>Thread safety: immutable.
 */
final class Writable {
  static final String DEFAULT_AFFINITY = "/proc/irq/default_smp_affinity";
  static final String WORKQUEUE_MASK = "/sys/devices/virtual/workqueue/cpumask";
  static final String THREADS = "cgroup.threads";
  static final String TASKS = "tasks";
  static final String EXCLUSIVE = "cpuset.cpus.exclusive";
  private static final String IRQ_DIR = "/proc/irq/";
  private static final String PREFIX = "affinitykit-";
  private static final Set<String> V2_KIT_FILES =
      Set.of("cgroup.type", THREADS, "cpuset.cpus", EXCLUSIVE, "cpuset.cpus.partition");
  private static final Set<String> V1_KIT_FILES =
      Set.of("cpus", "mems", "cpuset.cpus", "cpuset.mems", TASKS);
  private static final Set<String> HOME_FILES =
      Set.of("cgroup.subtree_control", "cgroup.type", THREADS, TASKS);
  private static final Pattern V2_KIT_DIR = Pattern.compile("affinitykit-[0-9a-f]{1,32}");
  private static final Pattern V1_KIT_DIR =
      Pattern.compile("affinitykit-[0-9a-f]{1,32}-(iso|rest)");
  private static final String RULE =
      "expected: an isolation's own: a cgroup affinitykit-<id> (v1: -iso, -rest) or its files, the"
          + " home cgroup's cgroup.subtree_control, cgroup.type, cgroup.threads or tasks, an"
          + " ancestor's cpuset.cpus.exclusive, /proc/irq/<n>/smp_affinity[_list], "
          + DEFAULT_AFFINITY
          + " or "
          + WORKQUEUE_MASK
          + ", absolute and normal";

  private final List<String> v2Mounts;
  private final List<String> v1Mounts;

  /** The rule for these cgroup2 and cgroup v1 cpuset mount points. */
  Writable(List<String> v2Mounts, List<String> v1Mounts) {
    this.v2Mounts = List.copyOf(v2Mounts);
    this.v1Mounts = List.copyOf(v1Mounts);
  }

  /** The rule for the host under {@code fs}'s root: its cgroup mounts as it lists them now. */
  static Writable of(SysFs fs) {
    List<String> v2 = new ArrayList<>();
    List<String> v1 = new ArrayList<>();
    for (Mounts.Mount m : Mounts.read(fs).all()) {
      if (m.type().equals("cgroup2")) {
        v2.add(m.point());
      } else if (m.cpusetV1()) {
        v1.add(m.point());
      }
    }
    return new Writable(v2, v1);
  }

  /** The cgroup an isolation makes in {@code home}: {@code affinitykit-<id><suffix>}. */
  static String kitDir(String home, String id, String suffix) {
    return Mounts.join(home, PREFIX + id + suffix);
  }

  /** A control file of a cgroup the isolation made. */
  static String kitFile(String kitDir, String name) {
    return checked(kitDir, name, V2_KIT_FILES.contains(name) || V1_KIT_FILES.contains(name));
  }

  /** A control file of the cgroup the isolating process came from. */
  static String homeFile(String home, String name) {
    return checked(home, name, HOME_FILES.contains(name));
  }

  /** An ancestor's {@code cpuset.cpus.exclusive}, claimed for a remote partition. */
  static String ancestorFile(String ancestor) {
    return checked(ancestor, EXCLUSIVE, true);
  }

  /** An IRQ's affinity mask. */
  static String irqAffinity(int irq) {
    return IRQ_DIR + irq + "/smp_affinity";
  }

  private static String checked(String dir, String name, boolean allowed) {
    if (!allowed) {
      throw new IllegalArgumentException("cgroup file: " + name + " (" + RULE + ")");
    }
    return dir + "/" + name;
  }

  /**
   * Why a journal step's path is not one an isolation writes, as {@code journal path: /etc/passwd
   * (expected: ...)}; empty if it is one.
   */
  Optional<String> refusal(String path) {
    return allowed(path)
        ? Optional.empty()
        : Optional.of("journal path: " + path + " (" + RULE + ")");
  }

  private boolean allowed(String path) {
    if (!normal(path)) {
      return false;
    }
    if (path.equals(DEFAULT_AFFINITY) || path.equals(WORKQUEUE_MASK)) {
      return true;
    }
    if (path.startsWith(IRQ_DIR)) {
      String[] p = path.substring(IRQ_DIR.length()).split("/", -1);
      return p.length == 2
          && SysFs.index(p[0], "") >= 0
          && (p[1].equals("smp_affinity") || p[1].equals("smp_affinity_list"));
    }
    for (String m : v2Mounts) {
      Optional<String> rel = below(m, path);
      if (rel.isPresent() && inCgroup(rel.get(), V2_KIT_DIR, V2_KIT_FILES)) {
        return true;
      }
    }
    for (String m : v1Mounts) {
      Optional<String> rel = below(m, path);
      if (rel.isPresent() && inCgroup(rel.get(), V1_KIT_DIR, V1_KIT_FILES)) {
        return true;
      }
    }
    return false;
  }

  /** {@code rel}, a path inside a cgroup mount (empty: the mount itself), is an isolation's. */
  private static boolean inCgroup(String rel, Pattern kitDir, Set<String> kitFiles) {
    if (rel.isEmpty()) {
      return false;
    }
    String[] p = rel.split("/", -1);
    String last = p[p.length - 1];
    if (kitDir.matcher(last).matches()) {
      return true; // the cgroup itself: made and removed
    }
    if (p.length >= 2 && kitDir.matcher(p[p.length - 2]).matches()) {
      return kitFiles.contains(last);
    }
    return HOME_FILES.contains(last) || (last.equals(EXCLUSIVE) && p.length >= 2);
  }

  /** The part of {@code path} below mount point {@code m}: empty text for {@code m} itself. */
  private static Optional<String> below(String m, String path) {
    String point = m.endsWith("/") ? m.substring(0, m.length() - 1) : m;
    if (point.isEmpty()) {
      return Optional.empty(); // a cgroup filesystem on / is no isolation's
    }
    if (path.equals(point)) {
      return Optional.of("");
    }
    return path.startsWith(point + "/")
        ? Optional.of(path.substring(point.length() + 1))
        : Optional.empty();
  }

  /** Absolute, no empty, {@code .} or {@code ..} component, no trailing slash. */
  private static boolean normal(String path) {
    if (!path.startsWith("/") || path.length() < 2) {
      return false;
    }
    for (String c : path.substring(1).split("/", -1)) {
      if (c.isEmpty() || c.equals(".") || c.equals("..") || c.indexOf('\0') >= 0) {
        return false;
      }
    }
    return true;
  }
}
