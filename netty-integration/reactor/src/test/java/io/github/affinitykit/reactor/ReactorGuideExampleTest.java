package io.github.affinitykit.reactor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.testkit.ReadmeBlocks;
import io.github.affinitykit.netty.PinnedServerGroups;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The example of {@code docs/reactor-netty.md}, run; and checked to be the guide's, line for line.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(60)
class ReactorGuideExampleTest {
  @Test
  void shouldRunTheGuidesExample() throws Exception {
    assumeTrue(LoopMasks.kit().backend().isSupported());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    // README:begin
    AffinityKit kit = AffinityKit.shared(); // host, backend, lock directory, pool
    PinnedLoopResources loops =
        PinnedLoopResources.of(PinnedServerGroups.builder(kit).workers(1).build()).start();
    DisposableServer server =
        HttpServer.create()
            .runOn(loops) // accepts on the pinned boss, serves on the pinned workers
            .port(0) // a free port: server.port() says which
            .handle((request, response) -> response.sendString(Mono.just("hello")))
            .bindNow();
    out.println(loops.report()); // the transport, and where every loop runs
    server.disposeNow();
    loops.close(); // stops the loops, then frees their CPUs
    // README:end

    String printed = bytes.toString(StandardCharsets.UTF_8);
    Files.writeString(Path.of("target", "reactor-guide-report.txt"), printed);
    assertThat(printed).startsWith("transport ").contains("boss-0 cpu").contains("worker-0 cpu");
    assertThat(loops.isDisposed()).isTrue();
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
  }

  @Test
  void shouldBeTheCodeTheGuideShows() throws IOException {
    ReadmeBlocks.assertShown(
        Path.of("src/test/java/io/github/affinitykit/reactor/ReactorGuideExampleTest.java"),
        Path.of("..", "..", "docs", "reactor-netty.md"));
  }
}
