/**
 * The Disruptor against the queues people write instead: {@link
 * io.github.affinitykit.bench.queues.QueueVsDisruptorBenchmark}.
 */
package io.github.affinitykit.bench.queues;
