package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cli.CommandLines;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SoakCommandTest {
  private static SoakOptions parse(String... args) {
    SoakCommand command = new SoakCommand(System.out);
    CommandLines.configure(new CommandLine(command)).parseArgs(args);
    return command.options();
  }

  @Test
  void shouldDefaultToHalfAnHourPinnedWithAFifthHostile() {
    SoakOptions o = parse("--out", "x");
    assertThat(o.duration()).isEqualTo(Duration.ofMinutes(30));
    assertThat(o.pin()).isEqualTo("pinned");
    assertThat(o.hostilePercent()).isEqualTo(20);
    assertThat(o.heap()).isEqualTo("256m");
    assertThat(o.out()).isEqualTo(Path.of("x"));
    assertThat(parse().out().toString()).startsWith("soak-results");
  }

  @Test
  void shouldNameEachBadValueWithItsRule() {
    assertThatThrownBy(() -> parse("--duration", "30s"))
        .hasMessageContaining("--duration: PT30S (expected: >= 1m)");
    assertThatThrownBy(() -> parse("--hostile", "150"))
        .hasMessageContaining("--hostile: 150 (expected: 0-100)");
    assertThatThrownBy(() -> parse("--pin", "none"))
        .hasMessageContaining("--pin: none (expected: unpinned, pinned, exclusive or isolated)");
    assertThatThrownBy(() -> parse("--heap", "lots"))
        .hasMessageContaining("--heap: lots (expected: a size such as 256m or 1g)");
    assertThatThrownBy(() -> parse("--duration", "1m", "--sample", "10s"))
        .hasMessageContaining("--sample: PT10S (expected: >= 1s, and at least 12 samples");
    assertThatThrownBy(() -> parse("--rate", "0"))
        .hasMessageContaining("--rate: 0 (expected: >= 1");
  }
}
