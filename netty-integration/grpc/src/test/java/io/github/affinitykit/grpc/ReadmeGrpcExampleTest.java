package io.github.affinitykit.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.testkit.ReadmeBlocks;
import io.github.affinitykit.netty.PinnedServerGroups;
import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The gRPC guide's example ({@code docs/grpc.md}), compiled and run; checked line for line. */
@Timeout(60)
class ReadmeGrpcExampleTest {
  @Test
  void shouldRunTheGuidesExample() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    // README:begin
    AffinityKit kit = AffinityKit.shared(); // host, backend, lock directory, pool
    PinnedServerGroups groups = PinnedServerGroups.builder(kit).workers(2).build();
    Server server =
        PinnedGrpcServer.configure( // boss, workers and channel type: all three, or none
                NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)), groups)
            // .addService(yourService)
            .build()
            .start();
    out.println(groups.report()); // the transport, and where every loop runs
    server.shutdown().awaitTermination(5, TimeUnit.SECONDS);
    groups.close(); // after the server: stops the loops, then frees their CPUs
    // README:end

    String printed = bytes.toString(StandardCharsets.UTF_8);
    System.out.print(printed); // the guide shows it
    assertThat(printed).startsWith("transport ").contains("boss-0 cpu").contains("worker-1 cpu");
    assertThat(server.isTerminated()).isTrue();
    assertThat(groups.workers().isTerminated()).isTrue();
  }

  @Test
  void shouldBeTheCodeTheGuideShows() throws IOException {
    ReadmeBlocks.assertShown(
        Path.of("src/test/java/io/github/affinitykit/grpc/ReadmeGrpcExampleTest.java"),
        Path.of("..", "..", "docs", "grpc.md"));
  }
}
