package io.github.affinitykit.disruptor;

import static org.assertj.core.api.Assertions.assertThat;

import com.lmax.disruptor.RingBuffer;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.testkit.ReadmeBlocks;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Disruptor example of README.md, compiled and run; checked line for line (the README's block
 * also declares {@code LongEvent} itself, as a local class).
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

    // README:begin
    CountDownLatch handled = new CountDownLatch(1);
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
    ReadmeBlocks.assertShown(
        Path.of("src/test/java/io/github/affinitykit/disruptor/ReadmeDisruptorExampleTest.java"),
        Path.of("..", "README.md"));
  }
}
