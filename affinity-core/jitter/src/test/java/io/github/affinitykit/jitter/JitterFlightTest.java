package io.github.affinitykit.jitter;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.testkit.KitEvents;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code JitterGap} Flight Recorder event, recorded and read back as a user's tools would: one
 * per gap over the threshold, with its CPU, start, length and cause.
 */
@Timeout(60)
class JitterFlightTest {
  @TempDir Path dir;

  @Test
  void shouldRecordOneEventPerGapWithItsCpuStartLengthAndCause() throws Exception {
    Instant start = Instant.parse("2026-11-28T09:00:00.123Z");
    Attribution timer = new Attribution(List.of(new CounterMove("irq LOC", 1, 0.5)), 10, 90, true);
    Attribution none = new Attribution(List.of(), 10, 90, true);
    List<Gap> gaps =
        List.of(
            new Gap(1, 50, start, 42_000, timer),
            new Gap(1, 70, start.plusMillis(5), 15_000, none));
    List<RecordedEvent> events;
    try (Recording r = new Recording()) {
      r.enable("io.github.affinitykit.JitterGap");
      r.start();
      GapFlight.gaps(gaps);
      events = KitEvents.stopAndRead(r, dir.resolve("jitter.jfr"));
    }
    assertThat(events).hasSize(2);
    RecordedEvent first = events.get(0);
    assertThat(first.getEventType().getName()).isEqualTo("io.github.affinitykit.JitterGap");
    assertThat(first.getInt("cpu")).isEqualTo(1);
    assertThat(first.getDuration("gapDuration")).isEqualTo(Duration.ofNanos(42_000));
    assertThat(first.getInstant("gapStart")).isEqualTo(Instant.parse("2026-11-28T09:00:00.123Z"));
    assertThat(first.getString("cause")).isEqualTo("irq LOC +1");
    assertThat(events.get(1).getString("cause")).isEqualTo("unexplained");
  }

  @Test
  void shouldCommitNothingWhenTheRecordingDisabledTheEvent() throws Exception {
    Gap gap = new Gap(1, 0, Instant.EPOCH, 20_000, Attribution.NOT_COUNTED);
    List<RecordedEvent> events;
    try (Recording r = new Recording()) {
      r.disable("io.github.affinitykit.JitterGap");
      r.start();
      GapFlight.gaps(List.of(gap));
      events = KitEvents.stopAndRead(r, dir.resolve("none.jfr"));
    }
    assertThat(events).isEmpty();
  }
}
