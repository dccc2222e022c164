package io.github.affinitykit.disruptor.demo;

import static io.github.affinitykit.core.cli.CommandLines.require;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.cli.KitVersion;
import io.github.affinitykit.core.cli.OptionTable.Key;
import io.github.affinitykit.disruptor.Pinning;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * What both demo commands ({@link DemoCommand}, {@link CompareCommand}) are: a table of flags
 * checked into options {@code O}, then the kit (a bad {@code -Daffinitykit.pool} or {@code
 * AFFINITYKIT_POOL} is a usage error, before anything is pinned), then a run that prints its table
 * and answers exit status 0 if every event reached every consumer in order, else 1.
 *
 * <p>This class's {@code @Command} attributes ({@code -h}/{@code -V} listed after the table, the
 * kit's version, the exit statuses) are merged by picocli into each command's own name and
 * description; the checks of the rows both tables share ({@link DemoFlags}) live here, each failure
 * a usage error {@code --flag: value (expected: rule)}.
 *
 * <p>Thread safety: one instance per run, parsed and run on one thread.
 *
 * @param <O> the checked options of one run
 */
@Command(
    mixinStandardHelpOptions = true,
    versionProvider = KitVersion.class,
    sortOptions = false,
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
      "0:every event reached every consumer, in order",
      "1:an event was lost or reordered",
      "2:a bad option or pool override (-Daffinitykit.pool, AFFINITYKIT_POOL)"
    })
abstract sealed class PipelineCommand<O> implements Callable<Integer>
    permits DemoCommand, CompareCommand {
  @Spec private CommandSpec spec;

  @Mixin private final CommandSpec flags;

  private final Supplier<AffinityKit> kits;
  private final PrintStream console;

  /**
   * A command of the flags {@code table}, on the kit {@code kits} supplies, printing to console.
   */
  PipelineCommand(Supplier<AffinityKit> kits, PrintStream console, CommandSpec table) {
    this.kits = Objects.requireNonNull(kits, "kits");
    this.console = Objects.requireNonNull(console, "console");
    this.flags = Objects.requireNonNull(table, "table");
  }

  @Override
  public final Integer call() throws InterruptedException {
    O options = options();
    AffinityKit kit = CommandLines.configured(spec, kits);
    return run(kit, options, console) ? 0 : 1;
  }

  /**
   * Returns the checked options.
   *
   * @throws ParameterException naming the flag, the value and the rule
   */
  abstract O options();

  /**
   * Runs with {@code options} on {@code kit}, printing to {@code out}; whether no event was lost.
   */
  abstract boolean run(AffinityKit kit, O options, PrintStream out) throws InterruptedException;

  /** Returns the value of {@code key}: given, else its default, else {@code null}. */
  final <T> T value(Key<T> key) {
    return key.value(flags);
  }

  /** Returns the usage error {@code key: value (expected: rule)}; throw it. */
  final ParameterException badValue(Key<?> key, Object value, String rule) {
    return CommandLines.badValue(spec, key.name(), value, rule);
  }

  /**
   * Returns the value of {@code key}, else its default ({@code quickly} under {@code --quick}), if
   * at least {@code min}.
   */
  final long atLeast(Key<Long> key, long normal, long quickly, long min) {
    Long given = value(key);
    long v = given != null ? given : value(DemoFlags.QUICK) ? quickly : normal;
    require(spec, v >= min, key.name(), v, "an integer >= " + min);
    return v;
  }

  /** Returns the ring size of {@code key} (default 1024), a power of two. */
  final int ring(Key<Long> key) {
    long ringSize = atLeast(key, 1024, 1024, 1);
    require(
        spec,
        Long.bitCount(ringSize) == 1 && ringSize <= 1 << 30,
        key.name(),
        ringSize,
        "a power of two, at most 1073741824");
    return (int) ringSize;
  }

  /** Returns the consumer counts of {@code --shapes}, such as {@code 1,3}. */
  final List<Integer> shapes() {
    String shapes = value(DemoFlags.SHAPES);
    List<Integer> out = new ArrayList<>();
    for (String s : shapes.split(",")) {
      int n = 0;
      try {
        n = Integer.parseInt(s.strip());
      } catch (NumberFormatException e) {
        // refused below with the rule
      }
      require(spec, n >= 1, DemoFlags.SHAPES.name(), shapes, "consumer counts >= 1, such as 1,3");
      out.add(n);
    }
    return out;
  }

  /** Returns the pinnings of {@code --pinning}, such as {@code unpinned,consumers,all}. */
  final List<Pinning> pinnings() {
    String pinnings = value(DemoFlags.PINNING);
    List<Pinning> out = new ArrayList<>();
    for (String p : pinnings.split(",")) {
      try {
        out.add(Pinning.valueOf(p.strip().toUpperCase(Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        throw badValue(DemoFlags.PINNING, pinnings, "unpinned, consumers or all");
      }
    }
    return out;
  }
}
