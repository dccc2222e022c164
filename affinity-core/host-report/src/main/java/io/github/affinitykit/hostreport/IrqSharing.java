package io.github.affinitykit.hostreport;

/**
 * Whether threads placed next to a NIC may share CPUs with the NIC's interrupts.
 *
 * <p>An interrupt, and the softirq work the kernel does after it (the packet's protocol
 * processing), runs on the CPU the interrupt is delivered to and preempts whatever runs there. A
 * busy event loop on that CPU loses that time and its cache; on another CPU of the same node it
 * reads what the softirq left in the shared L3. Thread safety: an enum.
 */
public enum IrqSharing {
  /**
   * Keeps the threads off the CPUs that take the NIC's interrupts, where the NIC's node has other
   * CPUs in the pool; shares them (and says so) where it has none.
   */
  AVOID,
  /** Places the threads on the NIC's node whether or not its CPUs take the NIC's interrupts. */
  SHARE
}
