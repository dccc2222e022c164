package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An {@link OutOfMemoryError} inside the gateway's pipeline halts the JVM with {@link
 * GatewayMain#EXIT_FATAL}: Netty catches it and hands it to {@code exceptionCaught}, where the
 * gateway's handlers must pass it on instead of closing one connection and living on half-dead.
 */
class GatewayFatalErrorIT {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"http", "ws"})
  @Timeout(60)
  void shouldHaltWithTheFatalStatusWhenAHandlerSeesAnOutOfMemoryError(String handler)
      throws Exception {
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    Process p =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    FatalChild.class.getName(),
                    handler))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    try {
      assertThat(p.waitFor(50, TimeUnit.SECONDS)).as("child ended").isTrue();
      String stderr = Files.readString(err, StandardCharsets.UTF_8);
      assertThat(p.exitValue()).as("exit status; stderr: %s", stderr).isEqualTo(3);
      assertThat(stderr).contains("gateway: fatal: java.lang.OutOfMemoryError").contains("halting");
      assertThat(Files.readString(out, StandardCharsets.UTF_8)).doesNotContain("swallowed");
    } finally {
      p.destroyForcibly();
    }
  }
}
