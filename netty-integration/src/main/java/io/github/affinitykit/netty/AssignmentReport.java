package io.github.affinitykit.netty;

import io.github.affinitykit.hostreport.NicPlacement;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where every loop of a server's groups runs, and on which transport.
 *
 * <p>Thread safety: immutable (a snapshot).
 *
 * @param transport the transport chosen, and why
 * @param loops every loop: boss, then workers, then business executors
 * @param waits how the worker loops wait when idle, and why: the wait policy's headline, then one
 *     line per worker loop ({@link WaitSelectStrategyFactory#report()})
 * @param nic where the worker loops were placed next to a NIC, and why; empty if not asked
 */
public record AssignmentReport(
    TransportChoice transport,
    List<LoopAssignment> loops,
    List<String> waits,
    Optional<NicPlacement> nic) {
  /**
   * Copies.
   *
   * @param transport the transport chosen, and why; not null
   * @param loops every loop: boss, then workers, then business executors; copied, no nulls
   * @param waits how the worker loops wait when idle, and why; copied, no nulls
   * @param nic the placement next to a NIC; empty if not asked; not null
   */
  public AssignmentReport {
    Objects.requireNonNull(transport, "transport");
    Objects.requireNonNull(nic, "nic");
    loops = List.copyOf(loops);
    waits = List.copyOf(waits);
  }

  /**
   * A report of loops placed without regard to a NIC.
   *
   * @param transport the transport chosen, and why; not null
   * @param loops every loop: boss, then workers, then business executors; copied, no nulls
   * @param waits how the worker loops wait when idle, and why; copied, no nulls
   */
  public AssignmentReport(
      TransportChoice transport, List<LoopAssignment> loops, List<String> waits) {
    this(transport, loops, waits, Optional.empty());
  }

  /**
   * A report of loops that block when idle (Netty's default).
   *
   * @param transport the transport chosen, and why; not null
   * @param loops every loop: boss, then workers, then business executors; copied, no nulls
   */
  public AssignmentReport(TransportChoice transport, List<LoopAssignment> loops) {
    this(transport, loops, List.of("wait policy block"));
  }

  /**
   * Returns loop {@code index} of group {@code group}, if there is one.
   *
   * @param group the group's name as its loops report it ({@code boss}, {@code worker}, ...)
   * @param index the loop's index in its group, 0-based
   * @return the first loop with that group and index; empty when the report has none
   */
  public Optional<LoopAssignment> loop(String group, int index) {
    return loops.stream().filter(l -> l.group().equals(group) && l.index() == index).findFirst();
  }

  /**
   * Returns the loops of group {@code group}, in index order.
   *
   * @param group the group's name as its loops report it ({@code boss}, {@code worker}, ...)
   * @return that group's loops; empty when no loop has that group name
   */
  public List<LoopAssignment> group(String group) {
    return loops.stream().filter(l -> l.group().equals(group)).toList();
  }

  /** Returns several lines: the transport, one line per loop, then how each worker loop waits. */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    out.append("transport ")
        .append(transport.transport())
        .append(" (")
        .append(transport.reason())
        .append(")");
    nic.ifPresent(
        p ->
            out.append(System.lineSeparator())
                .append("near ")
                .append(p.nic())
                .append(" (IRQs: ")
                .append(p.applied().name().toLowerCase(java.util.Locale.ROOT))
                .append("): ")
                .append(p.reason()));
    loops.forEach(l -> out.append(System.lineSeparator()).append("  ").append(l));
    for (int i = 0; i < waits.size(); i++) {
      out.append(System.lineSeparator()).append(i == 0 ? "" : "  ").append(waits.get(i));
    }
    return out.toString();
  }
}
