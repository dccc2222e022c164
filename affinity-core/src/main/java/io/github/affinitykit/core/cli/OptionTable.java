package io.github.affinitykit.core.cli;

import java.lang.invoke.MethodType;
import java.util.Objects;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A command's options declared as one table, a row per option (name, label, type, default, help),
 * instead of an annotated field each. A {@link Row} is typed by its value: a command keeps its rows
 * as constants, holds the table in a mixin field, {@code @Mixin private final CommandSpec options =
 * OptionTable.of(PORT, QUICK, ...)}, so {@code new CommandLine(command)} takes the rows in table
 * order (picocli lists them in {@code --help} where the field stands), and after parsing reads each
 * value through its row, {@code int port = PORT.value(options)}: a misspelt row or a wrong type
 * does not compile. A row's help may say {@code ${DEFAULT-VALUE}}: its initial value.
 *
 * <p>Rows that several commands share are written once, as a constant or a method returning the
 * row.
 *
 * <p>Thread safety: a {@link Row} is immutable and may be shared; a table belongs to one command
 * and the thread that parses it.
 */
public final class OptionTable {
  private OptionTable() {}

  /**
   * One option of a table: its name, label, type, initial value and help, and how to read its value
   * back as a {@code T}.
   *
   * <p>Thread safety: immutable.
   *
   * @param <T> the option's value, boxed ({@code Integer} for an {@code int.class} row)
   */
  public static final class Row<T> {
    private final String name;
    private final String label;
    private final Class<T> type;
    private final T initial;
    private final String description;
    private final ITypeConverter<T> converter;

    private Row(
        String name,
        String label,
        Class<T> type,
        T initial,
        String description,
        ITypeConverter<T> converter) {
      this.name = Objects.requireNonNull(name, "name");
      this.label = label;
      this.type = Objects.requireNonNull(type, "type");
      this.initial = initial;
      this.description = Objects.requireNonNull(description, "description");
      this.converter = converter;
    }

    /** Returns the option's name, such as {@code --port}, as errors name it. */
    public String name() {
      return name;
    }

    /** Returns this row converting its text with {@code converter} (a type picocli cannot). */
    public Row<T> converter(ITypeConverter<T> converter) {
      return new Row<>(
          name, label, type, initial, description, Objects.requireNonNull(converter, "converter"));
    }

    /**
     * Returns this row's value in {@code table}: the parsed value, else the row's initial value,
     * else {@code null}.
     *
     * @throws IllegalArgumentException if the table has no row of this name
     */
    public T value(CommandSpec table) {
      OptionSpec option = table.findOption(name);
      if (option == null) {
        throw new IllegalArgumentException("option: " + name + " (expected: a row of the table)");
      }
      @SuppressWarnings("unchecked") // the wrapper of Class<T> is Class<T> for a primitive T
      Class<T> boxed = (Class<T>) MethodType.methodType(type).wrap().returnType();
      return boxed.cast(option.getValue());
    }

    private OptionSpec build() {
      OptionSpec.Builder b = OptionSpec.builder(name).type(type).description(description);
      if (label != null) {
        b.paramLabel(label);
      }
      if (initial != null) {
        b.initialValue(initial);
      }
      if (converter != null) {
        b.converters(converter);
      }
      return b.build();
    }
  }

  /**
   * Returns a row without a default: option {@code name} taking one value of {@code type}, shown as
   * {@code label}, {@code null} unless given; chain {@link Row#converter} for a custom type.
   */
  public static <T> Row<T> option(String name, String label, Class<T> type, String description) {
    return new Row<>(name, Objects.requireNonNull(label, "label"), type, null, description, null);
  }

  /**
   * Returns a row whose value is {@code initial} unless given (its help's {@code
   * ${DEFAULT-VALUE}}).
   */
  public static <T> Row<T> option(
      String name, String label, Class<T> type, T initial, String description) {
    return new Row<>(
        name,
        Objects.requireNonNull(label, "label"),
        type,
        Objects.requireNonNull(initial, name),
        description,
        null);
  }

  /** Returns a row: a flag {@code name}, false unless given. */
  public static Row<Boolean> flag(String name, String description) {
    return new Row<>(name, null, boolean.class, false, description, null);
  }

  /** Returns a new table of {@code rows}, in this order; hold it in a {@code @Mixin} field. */
  public static CommandSpec of(Row<?>... rows) {
    CommandSpec table = CommandSpec.create();
    for (Row<?> row : rows) {
      table.addOption(row.build());
    }
    return table;
  }
}
