package io.github.affinitykit.core.cli;

import static io.github.affinitykit.core.cli.OptionTable.flag;
import static io.github.affinitykit.core.cli.OptionTable.option;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cli.OptionTable.Row;
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

    static final Row<Integer> PORT =
        option("--port", "N", int.class, 8080, "TCP port (default ${DEFAULT-VALUE})");
    static final Row<Duration> WAIT = option("--wait", "D", Duration.class, "how long");
    static final Row<Boolean> QUICK = flag("--quick", "a few seconds");
    static final Row<Thread.State> STATE =
        option("--state", "S", Thread.State.class, "a state, by its number")
            .converter(n -> Thread.State.values()[Integer.parseInt(n)]);

    @Mixin final CommandSpec options = OptionTable.of(PORT, WAIT, QUICK, STATE);
  }

  @Test
  void shouldReadParsedValuesAndDefaultsWhenTheRowsAreParsed() {
    Tabled given = new Tabled();
    Tabled none = new Tabled();

    CommandLines.configure(new CommandLine(given))
        .parseArgs("--port", "9", "--wait", "2s", "--quick", "--state", "1");
    CommandLines.configure(new CommandLine(none)).parseArgs();

    int port = Tabled.PORT.value(given.options); // a primitive row reads back boxed
    assertThat(port).isEqualTo(9);
    assertThat(Tabled.WAIT.value(given.options)).hasSeconds(2);
    assertThat(Tabled.QUICK.value(given.options)).isTrue();
    assertThat(Tabled.STATE.value(given.options)).isEqualTo(Thread.State.RUNNABLE);
    assertThat(Tabled.PORT.value(none.options)).isEqualTo(8080);
    assertThat(Tabled.WAIT.value(none.options)).isNull();
    assertThat(Tabled.QUICK.value(none.options)).isFalse();
    assertThat(Tabled.STATE.value(none.options)).isNull();
    assertThat(Tabled.PORT.name()).isEqualTo("--port");
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

    assertThatThrownBy(() -> option("--nope", "N", int.class, "not in the table").value(t.options))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("option: --nope (expected: a row of the table)");
  }
}
