package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.host.HostCpus;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link GatewayMain} as its own JVM: it prints where it listens, SIGTERM drains it, a bad
 * configuration (option, pool override in the environment or a property, pin mode) is one line and
 * status 2, {@code --help} status 0.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(120)
class GatewayProcessIT {
  @TempDir Path dir;

  private GatewayChild start(String... args) throws IOException {
    return GatewayChild.start(dir, List.of(), Map.of(), args);
  }

  @Test
  void shouldCloseClientsWith1001AndExitWhenSentSigterm() throws Exception {
    MultiThreadIoEventLoopGroup group =
        new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    try (GatewayChild p = start("--port", "0", "--pin", "pinned", "--drain-timeout", "2s")) {
      int port = p.awaitPort();
      WsClient c = WsClient.connect(group, port, "/ws");
      for (int i = 0; i < 50; i++) {
        c.sendText("m" + i);
      }
      for (int i = 0; i < 50; i++) {
        assertThat(c.next().body()).isEqualTo("m" + i);
      }

      p.process.toHandle().destroy(); // SIGTERM (Process.destroy would close our end of stdout)

      assertThat(c.awaitClose()).isEqualTo(new WsClient.Close(1001, "server shutting down"));
      assertThat(p.awaitExit(60)).isEqualTo(143); // 128 + SIGTERM, after the hook ran
      List<String> rest = p.out.lines().toList();
      assertThat(rest).anyMatch(l -> l.startsWith("gateway stopped: 50 messages in, 50 out"));
      assertThat(rest).anyMatch(l -> l.contains("worker-0"));
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  @Test
  void shouldExitWithStatus2AndOneLineOnABadCommandLine() throws Exception {
    try (GatewayChild p = start("--workers", "0")) {
      assertThat(p.awaitExit(60)).isEqualTo(2);
      assertThat(p.stderr()).isEqualTo("--workers: 0 (expected: an integer >= 1)\n");
    }
  }

  @Test
  void shouldPrintHelpAndExitZero() throws Exception {
    try (GatewayChild p = start("--help")) {
      assertThat(p.awaitExit(60)).isZero();
      assertThat(p.out.readLine()).startsWith("Usage: gateway");
      assertThat(p.stderr()).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"env abc", "property 5-1", "property all --pin exclusive"})
  void shouldExitWithStatus2AndOneLineOnABadPoolOrPinMode(String setup) throws Exception {
    String[] s = setup.split(" ", 3);
    String pool = s[1].equals("all") ? HostCpus.probe().reachable().toString() : s[1];
    List<String> jvm = s[0].equals("property") ? List.of("-Daffinitykit.pool=" + pool) : List.of();
    Map<String, String> env = s[0].equals("env") ? Map.of("AFFINITYKIT_POOL", pool) : Map.of();
    List<String> args = new ArrayList<>(List.of("--port", "0"));
    if (s.length > 2) {
      args.addAll(List.of(s[2].split(" ")));
    }
    try (GatewayChild p = GatewayChild.start(dir, jvm, env, args.toArray(String[]::new))) {
      assertThat(p.awaitExit(60)).isEqualTo(GatewayMain.EXIT_USAGE);
      List<String> err = p.stderr().lines().toList();
      assertThat(err).as(p.stderr()).hasSize(1);
      String origin = s[0].equals("env") ? "AFFINITYKIT_POOL" : "-Daffinitykit.pool";
      assertThat(err.get(0))
          .startsWith(s.length > 2 ? "pin: exclusive" : origin + ": ")
          .contains(s.length > 2 ? pool : s[1])
          .contains("expected");
    }
  }
}
