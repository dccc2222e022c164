package io.github.affinitykit.core.cli;

import static io.github.affinitykit.core.cli.OptionTable.flag;
import static io.github.affinitykit.core.cli.OptionTable.key;
import static io.github.affinitykit.core.cli.OptionTable.option;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cli.OptionTable.Key;
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

    static final Key<Integer> PORT = key("--port", int.class);
    static final Key<Duration> WAIT = key("--wait", Duration.class);
    static final Key<Boolean> QUICK = key("--quick", boolean.class);
    static final Key<Thread.State> STATE = key("--state", Thread.State.class);

    @Mixin
    final CommandSpec options =
        OptionTable.of(
            option(PORT, "N", 8080, "TCP port (default ${DEFAULT-VALUE})"),
            option(WAIT, "D", "how long"),
            flag(QUICK, "a few seconds"),
            option(STATE, "S", "a state, by its number")
                .converter(n -> Thread.State.values()[Integer.parseInt(n)]));
  }

  @Test
  void shouldReadParsedValuesAndDefaultsWhenTheRowsAreParsed() {
    Tabled given = new Tabled();
    Tabled none = new Tabled();

    CommandLines.configure(new CommandLine(given))
        .parseArgs("--port", "9", "--wait", "2s", "--quick", "--state", "1");
    CommandLines.configure(new CommandLine(none)).parseArgs();

    int port = Tabled.PORT.value(given.options); // a primitive key reads back boxed
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

    assertThatThrownBy(() -> key("--nope", int.class).value(t.options))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("option: --nope (expected: a row of the table)");
  }
}
