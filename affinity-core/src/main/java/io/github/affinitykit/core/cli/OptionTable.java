package io.github.affinitykit.core.cli;

import java.util.Objects;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A command's options declared as one table, a row per option (name, label, type, default, help),
 * instead of an annotated field each. The command holds the table in a mixin field, {@code @Mixin
 * private final CommandSpec options = OptionTable.of(option(...), flag(...), ...)}, so {@code new
 * CommandLine(command)} takes the rows in table order (picocli lists them in {@code --help} where
 * the field stands), and after parsing reads each value with {@link #value}. A row's help may say
 * {@code ${DEFAULT-VALUE}}: its {@code initialValue}.
 *
 * <p>Rows that several commands share are written once, as a method returning the row.
 *
 * <p>Thread safety: the table belongs to one command and the thread that parses it.
 */
public final class OptionTable {
  private OptionTable() {}

  /**
   * Returns a row without a default: option {@code name} taking one value of {@code type}, shown as
   * {@code label}, {@code null} unless given; chain {@code converters(...)} for a custom type.
   */
  public static OptionSpec.Builder option(
      String name, String label, Class<?> type, String description) {
    return OptionSpec.builder(name).paramLabel(label).type(type).description(description);
  }

  /**
   * Returns a row whose value is {@code initial} unless given (its help's {@code
   * ${DEFAULT-VALUE}}).
   */
  public static <T> OptionSpec.Builder option(
      String name, String label, Class<T> type, T initial, String description) {
    return option(name, label, type, description)
        .initialValue(Objects.requireNonNull(initial, name));
  }

  /** Returns a row: a flag {@code name}, false unless given. */
  public static OptionSpec.Builder flag(String name, String description) {
    return OptionSpec.builder(name)
        .type(boolean.class)
        .initialValue(false)
        .description(description);
  }

  /** Returns the table of {@code rows}, in this order; hold it in a {@code @Mixin} field. */
  public static CommandSpec of(OptionSpec.Builder... rows) {
    CommandSpec table = CommandSpec.create();
    for (OptionSpec.Builder row : rows) {
      table.addOption(row.build());
    }
    return table;
  }

  /**
   * Returns the value of option {@code name} of {@code table}: the parsed value, else the row's
   * initial value, else {@code null}.
   *
   * @throws IllegalArgumentException if the table has no such option
   */
  public static <T> T value(CommandSpec table, String name) {
    OptionSpec option = table.findOption(Objects.requireNonNull(name, "name"));
    if (option == null) {
      throw new IllegalArgumentException("option: " + name + " (expected: a row of the table)");
    }
    return option.getValue();
  }
}
