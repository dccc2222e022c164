package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.netty.Transport;
import java.time.Duration;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The command line: every option, both spellings, and errors that name value and rule. */
class GatewayArgsTest {
  @Test
  void shouldParseEveryOption() {
    GatewayConfig c =
        GatewayArgs.parse(
            "--port",
            "9000",
            "--transport",
            "epoll",
            "--pin=exclusive",
            "--workers",
            "3",
            "--business-threads",
            "2",
            "--max-frame-bytes",
            "4096",
            "--idle-timeout",
            "500ms",
            "--low-water-mark",
            "1000",
            "--high-water-mark",
            "2000",
            "--drain-timeout",
            "PT3S",
            "--request-timeout",
            "4s",
            "--host",
            "127.0.0.2");
    assertThat(c)
        .isEqualTo(
            new GatewayConfig(
                "127.0.0.2",
                9000,
                Transport.EPOLL,
                PinMode.EXCLUSIVE,
                OptionalInt.of(3),
                2,
                4096,
                Duration.ofMillis(500),
                1000,
                2000,
                Duration.ofSeconds(3),
                Duration.ofSeconds(4)));
  }

  @Test
  void shouldDefaultToPinnedAutoOn8080() {
    assertThat(GatewayArgs.parse()).isEqualTo(GatewayConfig.DEFAULTS);
    assertThat(GatewayConfig.DEFAULTS.pin()).isEqualTo(PinMode.PINNED);
    assertThat(GatewayArgs.parse("--idle-timeout", "2m").idleTimeout())
        .isEqualTo(Duration.ofMinutes(2));
  }

  @Test
  void shouldNameTheValueAndTheRule() {
    assertThatThrownBy(() -> GatewayArgs.parse("--workers", "0"))
        .hasMessage("workers: 0 (expected: > 0)");
    assertThatThrownBy(() -> GatewayArgs.parse("--pin", "maybe"))
        .hasMessage("pin: maybe (expected: none, pinned or exclusive)");
    assertThatThrownBy(() -> GatewayArgs.parse("--port", "x"))
        .hasMessage("port: x (expected: an integer)");
    assertThatThrownBy(() -> GatewayArgs.parse("--port", "70000"))
        .hasMessage("port: 70000 (expected: 0..65535)");
    assertThatThrownBy(() -> GatewayArgs.parse("--idle-timeout", "soon"))
        .hasMessage("idle-timeout: soon (expected: a duration such as 500ms, 30s, 2m or PT1M)");
    assertThatThrownBy(() -> GatewayArgs.parse("--high-water-mark", "10"))
        .hasMessage("high-water-mark: 10 (expected: >= low-water-mark)");
    assertThatThrownBy(() -> GatewayArgs.parse("--bogus", "1"))
        .hasMessageStartingWith("--bogus (expected: one of [");
    assertThatThrownBy(() -> GatewayArgs.parse("--port")).hasMessage("--port: missing value");
    assertThatThrownBy(() -> GatewayArgs.parse("8080"))
        .hasMessage("argument: 8080 (expected: --option value)");
  }
}
