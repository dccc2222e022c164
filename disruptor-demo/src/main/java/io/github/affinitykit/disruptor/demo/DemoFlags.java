package io.github.affinitykit.disruptor.demo;

import static io.github.affinitykit.core.cli.CommandLines.require;
import static io.github.affinitykit.core.cli.OptionTable.flag;
import static io.github.affinitykit.core.cli.OptionTable.option;

import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.cli.OptionTable;
import io.github.affinitykit.disruptor.Pinning;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The flags both demo commands ({@link DemoCommand}, {@link CompareCommand}) share: the rows of
 * their option tables that read the same in both, and the checks both apply, each failure a usage
 * error {@code --flag: value (expected: rule)}.
 *
 * <p>Thread safety: stateless.
 */
final class DemoFlags {
  private DemoFlags() {}

  /** The row of {@code --quick}. */
  static OptionSpec.Builder quick() {
    return flag("--quick", "a few seconds: the defaults after the semicolons");
  }

  /** A row of a whole number of something, {@code N}; absent = the command's default. */
  static OptionSpec.Builder count(String name, String description) {
    return option(name, "N", Long.class, description);
  }

  /** The row of {@code --rate}. */
  static OptionSpec.Builder rate() {
    return option("--rate", "N/s", Long.class, "paced events per second (10000)");
  }

  /** The row of {@code --shapes}, checked by {@link #shapes}. */
  static OptionSpec.Builder shapes() {
    return list("--shapes", "1,3", "consumers per pipeline (1,3)");
  }

  /** The row of {@code --pinning}, checked by {@link #pinnings}. */
  static OptionSpec.Builder pinning() {
    return list("--pinning", "none,consumers,all", "none,consumers,all (all three)");
  }

  /** A row of a comma-separated list, {@code LIST}, {@code initial} unless given. */
  static OptionSpec.Builder list(String name, String initial, String description) {
    return option(name, "LIST", String.class, initial, description);
  }

  /**
   * Returns the value of {@code name} in {@code flags}, else its default ({@code quickly} under
   * {@code --quick}), if ≥ min.
   */
  static long atLeast(
      CommandSpec spec, CommandSpec flags, String name, long normal, long quickly, long min) {
    Long value = OptionTable.value(flags, name);
    boolean quick = OptionTable.value(flags, "--quick");
    long v = value != null ? value : quick ? quickly : normal;
    require(spec, v >= min, name, v, "an integer >= " + min);
    return v;
  }

  /** Returns {@code --ring} (default 1024), a power of two. */
  static int ring(CommandSpec spec, CommandSpec flags) {
    long ringSize = atLeast(spec, flags, "--ring", 1024, 1024, 1);
    require(
        spec,
        Long.bitCount(ringSize) == 1 && ringSize <= 1 << 30,
        "--ring",
        ringSize,
        "a power of two, at most 1073741824");
    return (int) ringSize;
  }

  /** Returns the consumer counts of {@code --shapes}, such as {@code 1,3}. */
  static List<Integer> shapes(CommandSpec spec, CommandSpec flags) {
    String shapes = OptionTable.value(flags, "--shapes");
    List<Integer> out = new ArrayList<>();
    for (String s : shapes.split(",")) {
      int n = 0;
      try {
        n = Integer.parseInt(s.strip());
      } catch (NumberFormatException e) {
        // refused below with the rule
      }
      require(spec, n >= 1, "--shapes", shapes, "consumer counts >= 1, such as 1,3");
      out.add(n);
    }
    return out;
  }

  /** Returns the pinnings of {@code --pinning}, such as {@code none,consumers,all}. */
  static List<Pinning> pinnings(CommandSpec spec, CommandSpec flags) {
    String pinnings = OptionTable.value(flags, "--pinning");
    List<Pinning> out = new ArrayList<>();
    for (String p : pinnings.split(",")) {
      try {
        out.add(Pinning.valueOf(p.strip().toUpperCase(Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        throw CommandLines.badValue(spec, "--pinning", pinnings, "none, consumers or all");
      }
    }
    return out;
  }
}
