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
 */
public record PlacementReport(TransportChoice transport, List<LoopAssignment> loops) {
  /** Copies. */
  public PlacementReport {
    Objects.requireNonNull(transport, "transport");
    loops = List.copyOf(loops);
  }

  /** Returns loop {@code index} of group {@code group}, if there is one. */
  public Optional<LoopAssignment> loop(String group, int index) {
    return loops.stream().filter(l -> l.group().equals(group) && l.index() == index).findFirst();
  }

  /** Returns the loops of group {@code group}, in index order. */
  public List<LoopAssignment> group(String group) {
    return loops.stream().filter(l -> l.group().equals(group)).toList();
  }

  /** Returns several lines: the transport, then one line per loop. */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    out.append("transport ")
        .append(transport.transport())
        .append(" (")
        .append(transport.reason())
        .append(")");
    loops.forEach(l -> out.append(System.lineSeparator()).append("  ").append(l));
    return out.toString();
  }
}
