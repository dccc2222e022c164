package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import java.time.Duration;

/**
 * What a {@link CpuAuditor} found, as core reads it: which audited CPUs were EXCLUSIVE to their
 * owners, which INTRUDED (another task or an IRQ ran there, the SMT sibling was busy), and UNKNOWN
 * the rest. affinity-audit's {@code CpuAudit} implements it.
 *
 * <p>Thread safety: implementations are immutable.
 */
public interface ExclusivityAudit {
  /** {@return the window asked for; positive} */
  Duration window();

  /** {@return every CPU the audit answers for} */
  CpuSet audited();

  /** {@return the CPUs found EXCLUSIVE: only their owners ran or may run there} */
  CpuSet exclusive();

  /**
   * {@return the CPUs found INTRUDED: something else ran or may run there} The audited CPUs neither
   * EXCLUSIVE nor INTRUDED are UNKNOWN.
   */
  CpuSet intruded();

  /**
   * {@return what was found on {@code cpu}, in one line; empty when there is nothing to add} The
   * intruders of an INTRUDED CPU ({@code "bash (pid 300): ran_there"}), else notes.
   *
   * @param cpu one of {@link #audited()}
   * @throws IllegalArgumentException if {@code cpu} was not audited
   */
  String detail(int cpu);

  /** {@return newline-terminated lines such as {@code "cpu 3: INTRUDED, 2 ran_there"}} */
  String summary();
}
