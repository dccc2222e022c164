package io.github.affinitykit.disruptor;

/** A ring slot: the producer's running count and the last pipeline stage that saw it. */
final class TestEvent {
  long value;
  int stage = -1;
}
