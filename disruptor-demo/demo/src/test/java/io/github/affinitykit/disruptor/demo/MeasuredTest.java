package io.github.affinitykit.disruptor.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The check column both tables print from one {@link Measured}, and its {@link Latency}. */
class MeasuredTest {
  private static Measured measured(long errors, String note) {
    return new Measured(1e6, new Latency(1, 2, 3), new Switches(0, 0), 1, 0.1, 0, errors, note);
  }

  @Test
  void shouldSayOkWhenNothingWasLostMissingOrCutShort() {
    assertThat(measured(0, "").check("")).isEqualTo("ok");
    assertThat(measured(0, "").clean()).isTrue();
  }

  @Test
  void shouldCountLostEventsAfterWhatTheRowFoundMissing() {
    assertThat(measured(2, "").check("")).isEqualTo("2 MISSING/REORDERED");
    assertThat(measured(2, "").check("299/300 taken"))
        .isEqualTo("299/300 taken, 2 MISSING/REORDERED");
    assertThat(measured(0, "").check("299/300 taken")).isEqualTo("299/300 taken");
    assertThat(measured(2, "").clean()).isFalse();
  }

  @Test
  void shouldAppendTheNoteWhenARunWasCutShort() {
    assertThat(measured(0, "burst not drained").check("")).isEqualTo("ok (burst not drained)");
    assertThat(measured(1, "paced cut at 7 events").check(""))
        .isEqualTo("1 MISSING/REORDERED (paced cut at 7 events)");
    assertThat(measured(0, "burst not drained").clean()).isFalse();
  }

  @Test
  void shouldReadTheMedianAndTailOfANanosecondHistogramInMicroseconds() {
    Histogram ns = new Histogram(60_000_000_000L, 3);
    for (long us = 1; us <= 1000; us++) {
      ns.recordValue(us * 1000);
    }

    Latency l = Latency.of(ns);

    assertThat(l.p50Us()).isCloseTo(500, org.assertj.core.data.Offset.offset(1.0));
    assertThat(l.p99Us()).isCloseTo(990, org.assertj.core.data.Offset.offset(1.0));
    assertThat(l.p999Us()).isCloseTo(999, org.assertj.core.data.Offset.offset(1.0));
  }

  @Test
  void shouldShowMicrosecondsWithOneDecimalBelowAHundred() {
    assertThat(Latency.us(12.34)).isEqualTo("12.3");
    assertThat(Latency.us(1234.5)).isEqualTo("1,235");
  }
}
