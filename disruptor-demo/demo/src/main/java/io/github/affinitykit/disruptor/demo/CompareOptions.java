package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.disruptor.Pinning;
import java.util.List;

/**
 * The settings of {@code compare-queues}, as {@link CompareCommand} parsed them. Every contender
 * runs every shape under every pinning: one row each.
 *
 * <p>Thread safety: immutable.
 *
 * @param burstMs how long the producer publishes flat out per row (throughput, busy CPU)
 * @param pacedEvents events published at {@code rate} per row (latency, context switches)
 * @param rate paced events per second
 * @param warmupMs JIT warm-up before the table
 * @param ringSize ring slots and queue capacity (a power of two)
 * @param shapes consumers per row (1 = 1P→1C, 3 = 1P→3C)
 * @param pinnings what is pinned, per row
 * @param contenders what carries the events, per row
 */
record CompareOptions(
    long burstMs,
    long pacedEvents,
    long rate,
    long warmupMs,
    int ringSize,
    List<Integer> shapes,
    List<Pinning> pinnings,
    List<Contender> contenders) {
  CompareOptions {
    shapes = List.copyOf(shapes);
    pinnings = List.copyOf(pinnings);
    contenders = List.copyOf(contenders);
  }

  /** Returns how many rows the table will have. */
  int rows() {
    return shapes.size() * pinnings.size() * contenders.size();
  }
}
