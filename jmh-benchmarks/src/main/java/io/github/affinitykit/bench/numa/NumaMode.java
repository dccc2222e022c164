package io.github.affinitykit.bench.numa;

/**
 * Where the seed experiment's memory is put before the threads work on it. Thread safety: an enum.
 */
enum NumaMode {
  /** One buffer, every page first touched by one thread on the first node: the seed's 80 s run. */
  FIRST_TOUCH("first-touch"),
  /** Each thread's share touched first by that thread, pinned with policy LOCAL: its own node. */
  LOCAL("local"),
  /** One buffer interleaved page by page over every node before its first touch. */
  INTERLEAVE("interleave");

  private final String label;

  NumaMode(String label) {
    this.label = label;
  }

  /** {@return the name the report prints} */
  String label() {
    return label;
  }
}
