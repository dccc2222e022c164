package io.github.affinitykit.jitter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * What a sampling thread records, fed gaps directly: each gap in its log-2 bucket, the time lost
 * exactly their sum, the longest kept, those over the threshold logged in order up to the log's
 * capacity and the rest counted.
 */
class SpinnerTest {
  @Test
  void shouldCountEachGapInItsBucketAndSumTheTimeLost() {
    Spinner s = new Spinner(1_000, 10_000, 3, 2);
    long[] gaps = {1_000, 1_999, 2_000, 5_000, 12_000, 40_000, 1_500};
    long sum = 0;
    for (int i = 0; i < gaps.length; i++) {
      s.record(100L * i, gaps[i]);
      sum += gaps[i];
    }
    GapHistogram h = s.histogram();
    assertThat(h.count(0)).isEqualTo(3); // 1000, 1999, 1500: [1, 2) µs
    assertThat(h.count(1)).isEqualTo(1); // 2000: [2, 4) µs
    assertThat(h.count(2)).isEqualTo(1); // 5000: [4, 8) µs
    assertThat(h.count(3)).isEqualTo(1); // 12000: [8, 16) µs
    assertThat(h.count(5)).isEqualTo(1); // 40000: [32, 64) µs
    assertThat(h.totalCount()).isEqualTo(gaps.length).isEqualTo(s.gaps());
    assertThat(h.buckets())
        .extracting(GapHistogram.Bucket::count)
        .containsExactly(3L, 1L, 1L, 1L, 1L);
    assertThat(h.buckets().get(0).fromNs()).isEqualTo(1_000);
    assertThat(h.buckets().get(0).toNs()).isEqualTo(2_000);
    assertThat(s.lostNs()).isEqualTo(sum);
  }

  @Test
  void shouldKeepTheLongestGapsAndLogThoseOverTheThresholdInOrder() {
    Spinner s = new Spinner(1_000, 10_000, 2, 2);
    s.record(1, 12_000);
    s.record(2, 3_000);
    s.record(3, 40_000);
    s.record(4, 11_000); // over the threshold, the log is full
    s.record(5, 20_000); // likewise
    long[] longest = new long[s.top()];
    for (int i = 0; i < s.top(); i++) {
      longest[i] = s.topDuration(i);
    }
    assertThat(longest).containsExactlyInAnyOrder(40_000, 20_000);
    assertThat(s.logged()).isEqualTo(2);
    assertThat(s.logStart(0)).isEqualTo(1);
    assertThat(s.logStart(1)).isEqualTo(3);
    assertThat(s.dropped()).isEqualTo(2);
  }

  @Test
  void shouldPutEveryGapFromTheLastBucketsEndIntoTheLastBucket() {
    assertThat(GapHistogram.bucket(Long.MAX_VALUE, 1_000)).isEqualTo(GapHistogram.BUCKETS - 1);
    assertThat(GapHistogram.bucket(1_000L << 39, 1_000)).isEqualTo(39);
    assertThat(GapHistogram.bucket(100, 100)).isZero();
  }

  @Test
  void shouldGiveTheUpperEndOfTheBucketOfAFraction() {
    Spinner s = new Spinner(1_000, 10_000, 1, 1);
    for (int i = 0; i < 99; i++) {
      s.record(i, 1_500);
    }
    s.record(100, 70_000);
    GapHistogram h = s.histogram();
    assertThat(h.upperBoundNs(0.99)).isEqualTo(2_000);
    assertThat(h.upperBoundNs(1)).isEqualTo(128_000);
    assertThat(new Spinner(1_000, 1_000, 1, 1).histogram().upperBoundNs(0.5)).isZero();
    assertThat(h.toString()).startsWith("1.0 µs+: 99");
    assertThatThrownBy(() -> h.upperBoundNs(1.5)).hasMessage("fraction: 1.5 (expected: in [0, 1])");
  }

  @Test
  void shouldSpinUntilItsEndAndCountItsReads() {
    Spinner s = new Spinner(1_000, 10_000, 10, 10);
    long end = System.nanoTime() + 2_000_000;
    s.spin(end);
    assertThat(s.lastNanos()).isGreaterThanOrEqualTo(end);
    assertThat(s.samples()).isGreaterThan(1);
    assertThat(s.lostNs()).isLessThanOrEqualTo(s.lastNanos() - s.firstNanos());
  }
}
