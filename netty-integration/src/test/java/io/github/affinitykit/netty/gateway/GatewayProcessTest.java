package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** {@link GatewayMain} as its own JVM: it prints where it listens, and SIGTERM drains it. */
@EnabledOnOs(OS.LINUX)
@Timeout(120)
class GatewayProcessTest {
  @TempDir Path dir;

  private Process start(String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("--enable-native-access=ALL-UNNAMED");
    cmd.add("-Djava.io.tmpdir=" + dir); // its cpu-N.lock files stay in this test's directory
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(GatewayMain.class.getName());
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectError(dir.resolve("stderr.txt").toFile()).start();
  }

  @Test
  void shouldCloseClientsWith1001AndExitWhenSentSigterm() throws Exception {
    Process p = start("--port", "0", "--pin", "pinned", "--drain-timeout", "2s");
    MultiThreadIoEventLoopGroup group =
        new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String listening = out.readLine();
      assertThat(listening).as(stderr()).startsWith("gateway listening on 127.0.0.1:");
      int port = Integer.parseInt(listening.substring(listening.lastIndexOf(':') + 1));
      WsClient c = WsClient.connect(group, port, "/ws");
      for (int i = 0; i < 50; i++) {
        c.sendText("m" + i);
      }
      for (int i = 0; i < 50; i++) {
        assertThat(c.next().body()).isEqualTo("m" + i);
      }

      p.toHandle().destroy(); // SIGTERM (Process.destroy would close our end of stdout)

      assertThat(c.awaitClose()).isEqualTo(new WsClient.Close(1001, "server shutting down"));
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isEqualTo(143); // 128 + SIGTERM, after the hook ran
      List<String> rest = out.lines().toList();
      assertThat(rest).anyMatch(l -> l.startsWith("gateway stopped: 50 messages in, 50 out"));
      assertThat(rest).anyMatch(l -> l.contains("worker-0"));
    } finally {
      p.destroyForcibly();
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  @Test
  void shouldExitWithStatus2AndSayWhyOnABadCommandLine() throws Exception {
    Process p = start("--workers", "0");
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(2);
    assertThat(stderr()).contains("gateway: workers: 0 (expected: > 0)").contains("usage:");
  }

  private String stderr() throws IOException {
    return Files.readString(dir.resolve("stderr.txt"));
  }
}
