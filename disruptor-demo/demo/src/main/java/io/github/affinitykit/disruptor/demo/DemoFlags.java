package io.github.affinitykit.disruptor.demo;

import static io.github.affinitykit.core.cli.OptionTable.flag;
import static io.github.affinitykit.core.cli.OptionTable.key;
import static io.github.affinitykit.core.cli.OptionTable.option;

import io.github.affinitykit.core.cli.OptionTable.Key;
import io.github.affinitykit.core.cli.OptionTable.Row;

/**
 * The flags both demo commands ({@link DemoCommand}, {@link CompareCommand}) share: the keys and
 * rows that read the same in both, and the two kinds of row both declare with their own help, a
 * count and a list. {@link PipelineCommand} checks them.
 *
 * <p>Thread safety: immutable constants, stateless methods.
 */
final class DemoFlags {
  /** {@code --quick}: the defaults after the semicolons. */
  static final Key<Boolean> QUICK = key("--quick", boolean.class);

  /** {@code --rate}: paced events per second. */
  static final Key<Long> RATE = key("--rate", Long.class);

  /** {@code --shapes}: consumers per pipeline, checked by {@link PipelineCommand#shapes}. */
  static final Key<String> SHAPES = key("--shapes", String.class);

  /** {@code --pinning}: what is pinned, checked by {@link PipelineCommand#pinnings}. */
  static final Key<String> PINNING = key("--pinning", String.class);

  /** {@code --burst-ms}: how long each row publishes flat out. */
  static final Key<Long> BURST_MS = key("--burst-ms", Long.class);

  /** {@code --paced-events}: events per row at {@code --rate}, for latency. */
  static final Key<Long> PACED_EVENTS = key("--paced-events", Long.class);

  /** {@code --warmup-ms}: JIT warm-up before the table. */
  static final Key<Long> WARMUP_MS = key("--warmup-ms", Long.class);

  /** {@code --ring}: ring slots (and queue capacity), checked by {@link PipelineCommand#ring}. */
  static final Key<Long> RING = key("--ring", Long.class);

  private DemoFlags() {}

  /** The row of {@code --quick}. */
  static Row<Boolean> quick() {
    return flag(QUICK, "a few seconds: the defaults after the semicolons");
  }

  /** The row of {@code --rate}. */
  static Row<Long> rate() {
    return option(RATE, "N/s", "paced events per second (10000)");
  }

  /** The row of {@code --shapes}. */
  static Row<String> shapes() {
    return list(SHAPES, "1,3", "consumers per pipeline (1,3)");
  }

  /** The row of {@code --pinning}. */
  static Row<String> pinning() {
    return list(PINNING, "unpinned,consumers,all", "unpinned,consumers,all (all three)");
  }

  /** A row of a whole number of something, {@code N}; absent = the command's default. */
  static Row<Long> count(Key<Long> key, String description) {
    return option(key, "N", description);
  }

  /** A row of a comma-separated list, {@code LIST}, {@code initial} unless given. */
  static Row<String> list(Key<String> key, String initial, String description) {
    return option(key, "LIST", initial, description);
  }
}
