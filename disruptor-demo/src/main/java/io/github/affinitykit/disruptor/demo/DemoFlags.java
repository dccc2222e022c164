package io.github.affinitykit.disruptor.demo;

import static io.github.affinitykit.core.cli.CommandLines.require;

import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.disruptor.Pinning;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The checks both demo commands ({@link DemoCommand}, {@link CompareCommand}) apply to the flags
 * they share, each failure a usage error {@code --flag: value (expected: rule)}.
 *
 * <p>Thread safety: stateless.
 */
final class DemoFlags {
  private DemoFlags() {}

  /** Returns {@code value}, else the default ({@code quickly} under {@code --quick}), if ≥ min. */
  static long atLeast(
      CommandSpec spec,
      boolean quick,
      String name,
      Long value,
      long normal,
      long quickly,
      long min) {
    long v = value != null ? value : quick ? quickly : normal;
    require(spec, v >= min, name, v, "an integer >= " + min);
    return v;
  }

  /** Returns {@code --ring} (default 1024), a power of two. */
  static int ring(CommandSpec spec, Long value) {
    long ringSize = atLeast(spec, false, "--ring", value, 1024, 1024, 1);
    require(
        spec,
        Long.bitCount(ringSize) == 1 && ringSize <= 1 << 30,
        "--ring",
        ringSize,
        "a power of two, at most 1073741824");
    return (int) ringSize;
  }

  /** Returns the consumer counts of {@code --shapes}, such as {@code 1,3}. */
  static List<Integer> shapes(CommandSpec spec, String shapes) {
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
  static List<Pinning> pinnings(CommandSpec spec, String pinnings) {
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
