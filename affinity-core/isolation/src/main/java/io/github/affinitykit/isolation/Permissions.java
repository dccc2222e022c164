package io.github.affinitykit.isolation;

import io.github.affinitykit.core.internal.SysFs;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * What this process may change, checked before anything is: the capabilities in {@code
 * /proc/self/status} ({@code CapEff}) and write access to the journal directory and the IRQ files.
 *
 * <p>Thread safety: stateless.
 */
final class Permissions {
  /** {@code CAP_SYS_NICE}: set the affinity of other users' tasks. */
  static final int CAP_SYS_NICE = 23;

  private Permissions() {}

  /** Whether {@code CapEff} holds capability {@code bit}; false if unreadable. */
  static boolean has(SysFs fs, int bit) {
    for (String line : fs.lines("/proc/self/status")) {
      if (line.startsWith("CapEff:")) {
        try {
          return new BigInteger(line.substring(7).trim(), 16).testBit(bit);
        } catch (NumberFormatException e) {
          return false;
        }
      }
    }
    return false;
  }

  /**
   * The permissions missing to isolate anything, each as a sentence naming it; empty if none.
   *
   * @param journalDir where the journal must be written (created if missing)
   */
  static List<String> missing(KernelFiles files, String journalDir, boolean journalWritable) {
    List<String> out = new ArrayList<>();
    if (!has(files.fs(), CAP_SYS_NICE)) {
      out.add(
          "CAP_SYS_NICE (to move other processes' tasks off the CPUs): run as root or grant it");
    }
    if (files.exists("/proc/irq/default_smp_affinity")
        && !files.writable("/proc/irq/default_smp_affinity")) {
      out.add("write access to /proc/irq/*/smp_affinity (to move IRQs): run as root");
    }
    if (!journalWritable) {
      out.add("write access to the journal directory " + journalDir + " (the undo record)");
    }
    return out;
  }
}
