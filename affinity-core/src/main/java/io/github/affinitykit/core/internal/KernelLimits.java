package io.github.affinitykit.core.internal;

/**
 * The largest CPU and NUMA node ids any Linux kernel can have, and the largest kernel files this
 * library reads: what a file of a host, or of a tree passed as one ({@code doctor --root}), may
 * name or hold before it is refused. An index at or above its limit is refused before anything is
 * sized by it: a directory {@code cpu999999999} or {@code node4096} is no CPU or node, and a cpu
 * list naming CPU 8192 does not parse.
 *
 * <p>The byte limits are computed for a kernel at those limits, each one with its arithmetic: see
 * {@link #bytes(String)}.
 *
 * <p>Thread safety: constants and a pure function.
 */
public final class KernelLimits {
  /**
   * CPUs: {@code NR_CPUS} at its largest, 8192 ({@code CONFIG_MAXSMP} on x86-64, and powerpc's
   * range; arm64 stops at 4096). No kernel has CPU 8192.
   */
  public static final int CPUS = 8192;

  /**
   * NUMA nodes: {@code MAX_NUMNODES} at its largest, {@code 1 << NODES_SHIFT} with {@code
   * NODES_SHIFT} at most 10 (x86-64, arm64). {@code MemoryPolicy.MAX_NODE} is this minus one.
   */
  public static final int NODES = 1024;

  /**
   * A sysfs attribute: its {@code show()} fills at most one page (4096 bytes on x86-64 and on arm64
   * with 4 KiB pages); a file that holds more is not a sysfs attribute. (A kernel with 64 KiB pages
   * may print more; no attribute read here other than the cpu lists below comes near 4 KiB.)
   */
  static final int PAGE = 4096;

  /**
   * A cpu list, and any file whose name says it holds CPUs ({@code *list}, {@code *cpus}, a
   * cgroup's {@code cpuset.*}, which are not page-bound attributes): {@code
   * CPULIST_FILE_MAX_BYTES}, the size the kernel gives the topology and node {@code *_list}/{@code
   * cpulist} files (binary attributes since 5.14, so that they may exceed a page): {@code NR_CPUS *
   * 7 / 2} = 28,672 bytes. The longest list of 8192 CPUs, every other one ({@code 0,2,4,...,8190}),
   * is 19,924 bytes.
   */
  static final int CPU_LIST = CPUS * 7 / 2;

  /**
   * A small procfs file ({@code /proc/<pid>/task/<tid>/stat}, {@code status}, {@code sched}, {@code
   * /proc/cmdline}, {@code /proc/pressure/*}, {@code /proc/irq/<n>/*}): 64 KiB. The largest, a
   * task's {@code status} with {@code Cpus_allowed} (2,304 bytes) and {@code Cpus_allowed_list} (up
   * to 19,924) of 8192 CPUs and both {@code Mems_allowed} lines of 1024 nodes (about 4 KiB), is
   * under 32 KiB.
   */
  static final int PROC_FILE = 64 << 10;

  /**
   * A list of thread ids ({@code tasks}, {@code cgroup.threads}, {@code cgroup.procs}): every id
   * below {@code PID_MAX_LIMIT} (4,194,304), 8 bytes each with its newline: 32 MiB.
   */
  static final int TASK_LIST = 4_194_304 * 8;

  /**
   * A row of a per-CPU table ({@code /proc/interrupts}, {@code /proc/softirqs}): 11 bytes per CPU
   * ({@code "%10u "}, and {@code "CPU%-8d"} in the header) for 8192 CPUs, and 256 for its label
   * and, in {@code /proc/interrupts}, the chip, hardware IRQ and handler names after the counts:
   * 90,368 bytes.
   */
  static final int TABLE_ROW = 11 * CPUS + 256;

  /**
   * {@code /proc/interrupts}: 742 rows of {@link #TABLE_ROW} (about 64 MiB): the header, the
   * architecture's rows ({@code NMI}, {@code LOC} ... about 30 on x86) and 711 IRQs of 8192 CPUs. A
   * host with more is refused (its NIC IRQ names and the audit's IRQ counts are then unknown)
   * rather than held whole in memory.
   */
  static final int INTERRUPTS = 742 * TABLE_ROW;

  /**
   * {@code /proc/softirqs}: the header and its 10 rows ({@code HI} ... {@code RCU}) of 8192 CPUs.
   */
  static final int SOFTIRQS = 11 * TABLE_ROW;

  /**
   * {@code /proc/stat}: 8193 {@code cpu} lines of 10 counters of up to 20 digits (236 bytes each),
   * the {@code intr} line with a counter of up to 21 bytes for each of 16 IRQs per CPU ({@code
   * nr_irqs} on x86-64 is about 8 per CPU plus the IO-APIC pins), and 4 KiB for the rest: about 4.5
   * MiB.
   */
  static final int STAT = (CPUS + 1) * 236 + 16 * CPUS * 21 + 4096;

  /** {@code /proc/cpuinfo}: 4 KiB per CPU (an x86-64 processor block is about 1.5 KiB). */
  static final int CPUINFO = CPUS * 4096;

  /**
   * {@code /proc/self/mounts}: 65,536 mounts of 256 bytes (a busy container host has thousands).
   */
  static final int MOUNTS = 65_536 * 256;

  private KernelLimits() {}

  /**
   * The most bytes the file at {@code absolute} (a kernel path: {@code /proc/...}, {@code
   * /sys/...}, a cgroup file under its mount point) may hold: the limits above by path and name;
   * {@link #PAGE} for anything else.
   */
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
