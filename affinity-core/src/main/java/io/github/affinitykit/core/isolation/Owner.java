package io.github.affinitykit.core.isolation;

import io.github.affinitykit.core.internal.SysFs;
import java.util.Objects;

/**
 * The process that made an isolation: its pid, its start time (so that a later process with the
 * same pid is not taken for it) and the boot it ran in (an isolation dies with the boot: cgroups
 * and IRQ masks do not survive a reboot).
 *
 * <p>Thread safety: immutable.
 *
 * @param pid the process id
 * @param startTicks its start time after boot in clock ticks, -1 if unknown
 * @param bootId {@code /proc/sys/kernel/random/boot_id}, empty if unknown
 */
record Owner(long pid, long startTicks, String bootId) {
  private static final String BOOT_ID = "/proc/sys/kernel/random/boot_id";

  Owner {
    Objects.requireNonNull(bootId, "bootId");
  }

  /** This process, as seen under {@code fs}'s root. */
  static Owner self(SysFs fs) {
    long pid = ProcessHandle.current().pid();
    return new Owner(pid, startTicks(fs, pid), fs.read(BOOT_ID).orElse(""));
  }

  /** What became of the owner: alive, dead, or of an earlier boot. */
  OwnerState liveness(SysFs fs) {
    String boot = fs.read(BOOT_ID).orElse("");
    if (!bootId.isEmpty() && !boot.isEmpty() && !boot.equals(bootId)) {
      return OwnerState.EARLIER_BOOT;
    }
    String stat = fs.read("/proc/" + pid + "/stat").orElse("");
    long now = Task.startTicks(stat);
    boolean same = now >= 0 && (startTicks < 0 || now == startTicks);
    return same && !exited(stat) ? OwnerState.ALIVE : OwnerState.DEAD;
  }

  /** A zombie (killed, not yet reaped by its parent) or dead task: state Z or X after the name. */
  private static boolean exited(String stat) {
    int close = stat.lastIndexOf(')');
    char state = close >= 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : '?';
    return state == 'Z' || state == 'X';
  }

  private static long startTicks(SysFs fs, long pid) {
    return fs.read("/proc/" + pid + "/stat").map(Task::startTicks).orElse(-1L);
  }

  @Override
  public String toString() {
    return "pid " + pid;
  }
}
