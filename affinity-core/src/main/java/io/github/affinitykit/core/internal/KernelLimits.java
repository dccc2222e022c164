package io.github.affinitykit.core.internal;

/**
 * The largest CPU and NUMA node ids any Linux kernel can have, and the largest kernel files this
 * library reads: an index at or above its limit, or a longer file, is refused before anything is
 * sized by it. The arithmetic of each limit: ARCHITECTURE.md, "Host files are read bounded".
 *
 * <p>Thread safety: constants and a pure function.
 */
public final class KernelLimits {
  /** CPUs: {@code NR_CPUS} at its largest ({@code CONFIG_MAXSMP} on x86-64). */
  public static final int CPUS = 8192;

  /** NUMA nodes: {@code MAX_NUMNODES} at its largest, {@code 1 << 10}. */
  public static final int NODES = 1024;

  /** A sysfs attribute: its {@code show()} fills at most one page. */
  static final int PAGE = 4096;

  /**
   * A cpu list ({@code *list}, {@code *cpus}, {@code cpuset.*}): the kernel's {@code
   * CPULIST_FILE_MAX_BYTES}, as these are binary attributes since 5.14 and may pass a page.
   */
  static final int CPU_LIST = CPUS * 7 / 2;

  /** A small procfs file (a task's {@code stat}, {@code status}; {@code /proc/cmdline} ...). */
  static final int PROC_FILE = 64 << 10;

  /** A list of thread ids ({@code tasks}, {@code cgroup.procs}): every id below the limit. */
  static final int TASK_LIST = 4_194_304 * 8;

  /** A row of a per-CPU table: 11 bytes a CPU ({@code "%10u "}) and 256 for the names. */
  static final int TABLE_ROW = 11 * CPUS + 256;

  /** {@code /proc/interrupts}: the header, ~30 architecture rows and 711 IRQs (64 MiB). */
  static final int INTERRUPTS = 742 * TABLE_ROW;

  /** {@code /proc/softirqs}: the header and its 10 rows. */
  static final int SOFTIRQS = 11 * TABLE_ROW;

  /** {@code /proc/stat}: 8193 cpu lines, an {@code intr} line of 16 IRQs a CPU, 4 KiB more. */
  static final int STAT = (CPUS + 1) * 236 + 16 * CPUS * 21 + 4096;

  /** {@code /proc/cpuinfo}: 4 KiB per CPU (an x86-64 processor block is about 1.5 KiB). */
  static final int CPUINFO = CPUS * 4096;

  /** {@code /proc/self/mounts}: 65,536 mounts of 256 bytes. */
  static final int MOUNTS = 65_536 * 256;

  private KernelLimits() {}

  /** The most bytes the kernel file at {@code absolute} may hold, by path and name. */
  static int bytes(String absolute) {
    String name = absolute.substring(absolute.lastIndexOf('/') + 1);
    switch (name) {
      case "tasks":
      case "cgroup.threads":
      case "cgroup.procs":
        return TASK_LIST;
      default:
        break;
    }
    if (absolute.startsWith("/proc/")) {
      switch (absolute) {
        case "/proc/interrupts":
          return INTERRUPTS;
        case "/proc/softirqs":
          return SOFTIRQS;
        case "/proc/stat":
          return STAT;
        case "/proc/cpuinfo":
          return CPUINFO;
        default:
          return name.equals("mounts") ? MOUNTS : PROC_FILE;
      }
    }
    boolean cpus = name.endsWith("list") || name.endsWith("cpus") || name.startsWith("cpuset.");
    return cpus ? CPU_LIST : PAGE;
  }
}
