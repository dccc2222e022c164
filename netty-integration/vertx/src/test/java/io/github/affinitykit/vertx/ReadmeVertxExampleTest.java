package io.github.affinitykit.vertx;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.testkit.ReadmeBlocks;
import io.vertx.core.Vertx;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The Vert.x guide's example ({@code docs/vertx.md}), compiled and run; checked line for line. */
@Timeout(60)
class ReadmeVertxExampleTest {
  @BeforeAll
  static void poolOfEveryCpu() {
    KernelMask.poolOfEveryCpu();
  }

  @Test
  void shouldRunTheGuidesExample() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    // README:begin
    Vertx vertx = Vertx.vertx(); // ServiceLoader brings PinnedVertxThreadFactory in
    vertx
        .createHttpServer()
        .requestHandler(request -> request.response().end("hello"))
        .listen(0, "127.0.0.1")
        .toCompletionStage()
        .toCompletableFuture()
        .get();
    out.println(PinnedVertxThreadFactory.installed()); // where the event loops run
    vertx.close().toCompletionStage().toCompletableFuture().get(); // the loops end, CPUs freed
    // README:end

    String printed = bytes.toString(StandardCharsets.UTF_8);
    System.out.print(printed); // the guide shows it
    assertThat(printed).startsWith("[Assignment[threadName=vert.x-eventloop-thread-0");
  }

  @Test
  void shouldBeTheCodeTheGuideShows() throws IOException {
    ReadmeBlocks.assertShown(
        Path.of("src/test/java/io/github/affinitykit/vertx/ReadmeVertxExampleTest.java"),
        Path.of("..", "..", "docs", "vertx.md"));
  }
}
