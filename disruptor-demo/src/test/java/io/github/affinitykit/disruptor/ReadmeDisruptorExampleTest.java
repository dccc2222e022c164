package io.github.affinitykit.disruptor;

import static org.assertj.core.api.Assertions.assertThat;

import com.lmax.disruptor.RingBuffer;
import io.github.affinitykit.core.AffinityKit;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Disruptor example of README.md and disruptor-demo/README.md, compiled and run; both checked
 * line for line.
 */
@Timeout(60)
class ReadmeDisruptorExampleTest {
  /** The README's event: one number. */
  static final class LongEvent {
    long value;
  }

  @Test
  void shouldRunTheReadmeExample() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    CountDownLatch handled = new CountDownLatch(1);

    // README:begin
    AffinityKit kit = AffinityKit.shared(); // probe the host before pinning anything
    try (PinnedDisruptor<LongEvent> pd =
        PinnedDisruptor.builder(kit, LongEvent::new).consumers(1).build()) {
      pd.disruptor().handleEventsWith((event, sequence, endOfBatch) -> handled.countDown());
      RingBuffer<LongEvent> ring = pd.start(); // returns once every consumer runs pinned
      out.println(pd.choice().describe()); // the strategy, why, where each thread runs
      ring.publishEvent((event, sequence) -> event.value = sequence);
      handled.await(10, TimeUnit.SECONDS);
    } // halts, joins, frees every CPU
    // README:end

    assertThat(handled.getCount()).isZero();
    assertThat(bytes.toString(StandardCharsets.UTF_8)).isNotBlank();
    assertThat(kit.pinnedThreadIds()).isEmpty();
  }

  @Test
  void shouldBeTheCodeTheReadmeShows() throws IOException {
    List<String> lines =
        Files.readAllLines(
            Path.of(
                "src/test/java/io/github/affinitykit/disruptor/ReadmeDisruptorExampleTest.java"));
    List<String> mine =
        lines.subList(lines.indexOf("    // README:begin") + 1, lines.indexOf("    // README:end"));
    assertThat(mine).isNotEmpty();
    for (Path file : List.of(Path.of("README.md"), Path.of("..", "README.md"))) {
      String readme = Files.readString(file);
      for (String line : mine) {
        assertThat(readme).as("%s shows the tested example", file).contains(line.strip());
      }
    }
  }
}
