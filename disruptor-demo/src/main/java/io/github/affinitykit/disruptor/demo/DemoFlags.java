package io.github.affinitykit.disruptor.demo;

import static io.github.affinitykit.core.cli.OptionTable.flag;
import static io.github.affinitykit.core.cli.OptionTable.option;

import io.github.affinitykit.core.cli.OptionTable.Row;

/**
 * The rows of the demo commands' option tables that read the same in both ({@link DemoCommand},
 * {@link CompareCommand}), and the two kinds of row both declare with their own help: a count and a
 * list. {@link PipelineCommand} checks them.
 *
 * <p>Thread safety: immutable constants.
 */
final class DemoFlags {
  /** {@code --quick}: the defaults after the semicolons. */
  static final Row<Boolean> QUICK =
      flag("--quick", "a few seconds: the defaults after the semicolons");

  /** {@code --rate}: paced events per second. */
  static final Row<Long> RATE =
      option("--rate", "N/s", Long.class, "paced events per second (10000)");

  /** {@code --shapes}: consumers per pipeline, checked by {@link PipelineCommand#shapes}. */
  static final Row<String> SHAPES = list("--shapes", "1,3", "consumers per pipeline (1,3)");

  /** {@code --pinning}: what is pinned, checked by {@link PipelineCommand#pinnings}. */
  static final Row<String> PINNING =
      list("--pinning", "none,consumers,all", "none,consumers,all (all three)");

  private DemoFlags() {}

  /** A row of a whole number of something, {@code N}; absent = the command's default. */
  static Row<Long> count(String name, String description) {
    return option(name, "N", Long.class, description);
  }

  /** A row of a comma-separated list, {@code LIST}, {@code initial} unless given. */
  static Row<String> list(String name, String initial, String description) {
    return option(name, "LIST", String.class, initial, description);
  }
}
