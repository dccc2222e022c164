package io.github.affinitykit.netty;

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
 * @param waits how the worker loops wait when idle, and why
 */
public record AssignmentReport(
    TransportChoice transport, List<LoopAssignment> loops, WaitReport waits) {
  /**
   * Copies.
   *
   * @param transport the transport chosen, and why; not null
   * @param loops every loop: boss, then workers, then business executors; copied, no nulls
   * @param waits how the worker loops wait when idle, and why; not null
   */
  public AssignmentReport {
    Objects.requireNonNull(transport, "transport");
    Objects.requireNonNull(waits, "waits");
    loops = List.copyOf(loops);
  }

  /**
   * A report of loops that block when idle (Netty's default).
   *
   * @param transport the transport chosen, and why; not null
   * @param loops every loop: boss, then workers, then business executors; copied, no nulls
   */
  public AssignmentReport(TransportChoice transport, List<LoopAssignment> loops) {
    this(transport, loops, WaitReport.blocking());
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
    loops.forEach(l -> out.append(System.lineSeparator()).append("  ").append(l));
    out.append(System.lineSeparator()).append(waits.headline());
    waits.loops().forEach(l -> out.append(System.lineSeparator()).append("  ").append(l));
    return out.toString();
  }
}
