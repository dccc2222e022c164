package io.github.affinitykit.core.cli;

import java.lang.invoke.MethodType;
import java.util.Objects;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A command's options declared as one table, a row per option (key, label, default, help), instead
 * of an annotated field each. A {@link Key} names an option and types its value; a command keeps
 * its keys as constants, holds the table in a mixin field, {@code @Mixin private final CommandSpec
 * options = OptionTable.of(option(PORT, "N", 8080, "..."), flag(QUICK, "..."), ...)}, so {@code new
 * CommandLine(command)} takes the rows in table order (picocli lists them in {@code --help} where
 * the field stands), and after parsing reads each value through its key, {@code int port =
 * PORT.value(options)}: a misspelt key or a wrong type does not compile, and a row's default must
 * be of its key's type. A row's help may say {@code ${DEFAULT-VALUE}}: its initial value.
 *
 * <p>Rows that several commands share are written once, as a method returning the row.
 *
 * <p>Thread safety: keys and rows are immutable and may be shared; a table belongs to one command
 * and the thread that parses it.
 */
public final class OptionTable {
  private OptionTable() {}

  /**
   * An option's name and the type of its value: what a command reads back after parsing.
   *
   * <p>Thread safety: immutable.
   *
   * @param <T> the option's value, boxed ({@code Integer} for an {@code int.class} key)
   */
  public static final class Key<T> {
    private final String name;
    private final Class<T> type;

    private Key(String name, Class<T> type) {
      this.name = Objects.requireNonNull(name, "name");
      this.type = Objects.requireNonNull(type, "type");
    }

    /** Returns the option's name, such as {@code --port}, as errors name it. */
    public String name() {
      return name;
    }

    /**
     * Returns this option's value in {@code table}: the parsed value, else the row's initial value,
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
  }

  /**
   * One row of a table: a key with its label, initial value, help and, for a type picocli cannot
   * convert, a converter.
   *
   * <p>Thread safety: immutable.
   *
   * @param <T> the key's value
   */
  public static final class Row<T> {
    private final Key<T> key;
    private final String label;
    private final T initial;
    private final String description;
    private final ITypeConverter<T> converter;

    private Row(
        Key<T> key, String label, T initial, String description, ITypeConverter<T> converter) {
      this.key = Objects.requireNonNull(key, "key");
      this.label = label;
      this.initial = initial;
      this.description = Objects.requireNonNull(description, "description");
      this.converter = converter;
    }

    /** Returns this row converting its text with {@code converter} (a type picocli cannot). */
    public Row<T> converter(ITypeConverter<T> converter) {
      return new Row<>(
          key, label, initial, description, Objects.requireNonNull(converter, "converter"));
    }

    private OptionSpec build() {
      OptionSpec.Builder b = OptionSpec.builder(key.name).type(key.type).description(description);
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

  /** Returns the key of option {@code name}, whose value is a {@code type}. */
  public static <T> Key<T> key(String name, Class<T> type) {
    return new Key<>(name, type);
  }

  /**
   * Returns a row without a default: {@code key} taking one value, shown as {@code label}, {@code
   * null} unless given; chain {@link Row#converter} for a custom type.
   */
  public static <T> Row<T> option(Key<T> key, String label, String description) {
    return new Row<>(key, Objects.requireNonNull(label, "label"), null, description, null);
  }

  /**
   * Returns a row whose value is {@code initial} unless given (its help's {@code
   * ${DEFAULT-VALUE}}).
   */
  public static <T> Row<T> option(Key<T> key, String label, T initial, String description) {
    return new Row<>(
        key,
        Objects.requireNonNull(label, "label"),
        Objects.requireNonNull(initial, key.name()),
        description,
        null);
  }

  /** Returns a row: the flag {@code key}, false unless given. */
  public static Row<Boolean> flag(Key<Boolean> key, String description) {
    return new Row<>(key, null, false, description, null);
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
