package io.github.affinitykit.isolation;

import io.github.affinitykit.core.internal.SysFs;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The process that made an isolation. It is named by {@code id}, random per JVM, which names its
 * journal, its owner lock file and its cgroups: a pid cannot, since two pid namespaces (two
 * containers sharing the journal directory) each have a pid 1. Whether it still runs is whether it
 * still holds the lock on its owner file ({@link Journals}); the pid and start time are only
 * information. The boot id tells an isolation of an earlier boot (nothing left to undo: cgroups and
 * IRQ masks do not survive a reboot).
 *
 * <p>Thread safety: immutable; {@link #self} is safe for concurrent use.
 *
 * @param id 16 lower-case hex digits, random per JVM
 * @param pid the process id in the owner's pid namespace, for reports
 * @param startTicks its start time after boot in clock ticks, -1 if unknown; for reports
 * @param bootId {@code /proc/sys/kernel/random/boot_id}, empty if unknown
 */
record Owner(String id, long pid, long startTicks, String bootId) {
  private static final String BOOT_ID = "/proc/sys/kernel/random/boot_id";
  private static final Pattern ID = Pattern.compile("[0-9a-f]{16}");
  private static String jvmId; // guarded by Owner.class; made on first use, never in <clinit>

  Owner {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(bootId, "bootId");
    if (!ID.matcher(id).matches()) {
      throw new IllegalArgumentException("owner id: " + id + " (expected: 16 hex digits)");
    }
  }

  /** This process, as seen under {@code fs}'s root. */
  static Owner self(SysFs fs) {
    long pid = ProcessHandle.current().pid();
    long start = fs.read("/proc/" + pid + "/stat").map(Task::startTicks).orElse(-1L);
    return new Owner(jvmId(), pid, start, fs.read(BOOT_ID).orElse(""));
  }

  /** This JVM's id: 64 random bits, made on the first call. */
  static synchronized String jvmId() {
    if (jvmId == null) {
      byte[] b = new byte[8];
      new SecureRandom().nextBytes(b);
      jvmId = HexFormat.of().formatHex(b);
    }
    return jvmId;
  }

  /** Whether the isolation was made in an earlier boot than the one under {@code fs}. */
  boolean earlierBoot(SysFs fs) {
    String boot = fs.read(BOOT_ID).orElse("");
    return !bootId.isEmpty() && !boot.isEmpty() && !boot.equals(bootId);
  }

  @Override
  public String toString() {
    return "pid " + pid;
  }
}
