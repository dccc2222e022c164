package io.github.affinitykit.core.cpu;

/**
 * The kind of core a logical CPU runs on, on hybrid parts (Intel P-cores and E-cores, Arm
 * big.LITTLE).
 *
 * <p>Thread safety: an enum; immutable and safe to share.
 */
public enum CoreType {
  /** No difference between cores is visible in sysfs: the CPU is not on a hybrid part. */
  UNIFORM,
  /** A performance core: Intel's {@code cpu_core} PMU, or a hybrid part's most powerful kind. */
  PERFORMANCE,
  /** An efficiency core: Intel's {@code cpu_atom} or {@code cpu_lowpower} PMU, or a lesser kind. */
  EFFICIENCY
}
