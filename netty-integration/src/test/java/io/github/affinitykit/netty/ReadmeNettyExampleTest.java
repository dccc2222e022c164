package io.github.affinitykit.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.testkit.ReadmeBlocks;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.handler.logging.LoggingHandler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** README's "Drop into your Netty server", compiled and run; checked line for line. */
@Timeout(60)
class ReadmeNettyExampleTest {
  @Test
  void shouldRunTheReadmeExample() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    // README:begin
    AffinityKit kit = AffinityKit.shared(); // host, backend, lock directory, pool
    PinnedServerGroups groups = PinnedServerGroups.builder(kit).workers(2).build();
    Channel server =
        new ServerBootstrap()
            .group(groups.boss(), groups.workers()) // was: two MultiThreadIoEventLoopGroups
            .channel(groups.serverChannel()) // io_uring, epoll or NIO: what loads here
            .childHandler(new LoggingHandler())
            .bind("127.0.0.1", 0)
            .sync()
            .channel();
    out.println(groups.report()); // the transport, and where every loop runs
    server.close().sync();
    groups.close(); // stops the loops, then frees their CPUs
    // README:end

    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertThat(printed).startsWith("transport ").contains("boss-0 cpu").contains("worker-1 cpu");
    assertThat(groups.workers().isTerminated()).isTrue();
  }

  @Test
  void shouldBeTheCodeTheReadmeShows() throws IOException {
    ReadmeBlocks.assertShown(
        Path.of("src/test/java/io/github/affinitykit/netty/ReadmeNettyExampleTest.java"),
        Path.of("..", "README.md"));
  }
}
