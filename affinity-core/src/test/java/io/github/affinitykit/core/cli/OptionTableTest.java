package io.github.affinitykit.core.cli;

import static io.github.affinitykit.core.cli.OptionTable.flag;
import static io.github.affinitykit.core.cli.OptionTable.option;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

class OptionTableTest {
  @Command(name = "table", mixinStandardHelpOptions = true, sortOptions = false)
  static final class Tabled {
    @Option(names = "--first", description = "an annotated option before the table")
    boolean first;

    @Mixin
    final CommandSpec options =
        OptionTable.of(
            option("--port", "N", int.class, 8080, "TCP port (default ${DEFAULT-VALUE})"),
            option("--wait", "D", Duration.class, "how long"),
            flag("--quick", "a few seconds"));
  }

  @Test
  void shouldReadParsedValuesAndDefaultsWhenTheRowsAreParsed() {
    Tabled given = new Tabled();
    Tabled none = new Tabled();

    CommandLines.configure(new CommandLine(given))
        .parseArgs("--port", "9", "--wait", "2s", "--quick");
    CommandLines.configure(new CommandLine(none)).parseArgs();

    assertThat(OptionTable.<Integer>value(given.options, "--port")).isEqualTo(9);
    assertThat(OptionTable.<Duration>value(given.options, "--wait")).hasSeconds(2);
    assertThat(OptionTable.<Boolean>value(given.options, "--quick")).isTrue();
    assertThat(OptionTable.<Integer>value(none.options, "--port")).isEqualTo(8080);
    assertThat(OptionTable.<Duration>value(none.options, "--wait")).isNull();
    assertThat(OptionTable.<Boolean>value(none.options, "--quick")).isFalse();
  }

  @Test
  void shouldListTheRowsInTableOrderWhereTheFieldStandsWhenHelpIsShown() {
    String help = new CommandLine(new Tabled()).getUsageMessage();

    assertThat(help)
        .containsSubsequence(
            "--first", "--port=N", "TCP port (default 8080)", "--wait=D", "--quick", "--help");
  }

  @Test
  void shouldNameTheOptionWhenTheTableHasNoSuchRow() {
    Tabled t = new Tabled();

    assertThatThrownBy(() -> OptionTable.value(t.options, "--nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("option: --nope (expected: a row of the table)");
  }
}
