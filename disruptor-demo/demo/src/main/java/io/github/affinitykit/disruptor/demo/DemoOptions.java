package io.github.affinitykit.disruptor.demo;

import java.util.List;

/**
 * The demo's settings, as {@link DemoCommand} parsed them from the flags. Defaults take about a
 * minute on 2 CPUs; {@code --quick} a few seconds.
 *
 * <p>Thread safety: immutable.
 *
 * @param burstMs how long the producer publishes flat out per scenario (throughput, busy CPU)
 * @param pacedEvents events published at {@code rate} per scenario (latency, context switches)
 * @param rate paced events per second
 * @param idleMs how long nothing is published per scenario (idle CPU)
 * @param warmupMs JIT warm-up before the table
 * @param ringSize ring slots (a power of two)
 * @param auditMs audit window for the placement-chosen strategy; 0 = no audit
 * @param scenarios the rows, in order
 */
record DemoOptions(
    long burstMs,
    long pacedEvents,
    long rate,
    long idleMs,
    long warmupMs,
    int ringSize,
    long auditMs,
    List<Scenario> scenarios) {}
