package io.github.affinitykit.core;

import static io.github.affinitykit.core.placement.Placement.ANY;
import static io.github.affinitykit.core.placement.Placement.DIFFERENT_CORE;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.testkit.ReadmeBlocks;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The README's first example, compiled and run; and checked to be the README's text, line for line.
 * It uses affinity-core's own {@code Placement} constants: OpenHFT is a test dependency here, never
 * the library's ({@code .ci/consumer-check} compiles the README's block with affinity-core alone).
 */
@Timeout(60)
class ReadmeExampleTest {
  @Test
  void shouldRunTheReadmeExample() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    // README:begin
    AffinityKit kit = AffinityKit.shared(); // probes the host once: do it before pinning
    try (CpuLease lease = kit.pinCurrentThread()) { // reserve + bind; close() restores and frees
      out.println(lease.status() + " on cpu " + lease.cpu() + ": " + lease.reason());
    }
    ThreadFactory workers = new PinnedThreadFactory("worker", DIFFERENT_CORE, ANY);
    ExecutorService pool = Executors.newFixedThreadPool(2, workers);
    pool.submit(() -> out.println(Thread.currentThread().getName())).get();
    pool.shutdown();
    // README:end

    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertThat(printed)
        .containsPattern("(PINNED on cpu \\d+|UNPINNED on cpu -1|UNSUPPORTED on cpu -1)");
    assertThat(printed).contains("worker-0");
  }

  @Test
  void shouldBeTheCodeTheReadmeShows() throws IOException {
    ReadmeBlocks.assertShown(
        Path.of("src/test/java/io/github/affinitykit/core/ReadmeExampleTest.java"),
        Path.of("..", "README.md"));
  }
}
