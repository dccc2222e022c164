package io.github.affinitykit.core.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The converter on MicroJitterSampler's printed format as its source prints it (OpenHFT
 * Java-Thread-Affinity, {@code
 * affinity/src/main/java/net/openhft/affinity/MicroJitterSampler.java}: {@code "After " + seconds +
 * " seconds, the average per hour was"}, then {@code threshold + '\t' + ceil(count * 3600e9 /
 * sampledNs)} for each threshold with a gap, then an empty line).
 */
class MicroJitterOutputTest {
  /** Two rounds at 50%: 15 s sampled, then 30 s, cumulative; the third block cut off. */
  private static final List<String> PRINTED =
      List.of(
          "Warming up...",
          "Warmup complete. Running jitter tests...",
          "After 15 seconds, the average per hour was",
          "2us\t3360",
          "10us\t240",
          "",
          "After 30 seconds, the average per hour was",
          "2us\t3240",
          "3us\t360",
          "14us\t120",
          "1ms\t120",
          "",
          "After 45 seconds, the average per hour was",
          "2us\t4000");

  @Test
  void shouldReadTheLastCompleteBlockWhenTheNextIsCutOff() {
    MicroJitterOutput.Block b = MicroJitterOutput.lastBlock(PRINTED).orElseThrow();

    assertThat(b.seconds()).isEqualTo(30);
    assertThat(b.counts())
        .containsExactly(
            new MicroJitterOutput.Count(2_000, 3240),
            new MicroJitterOutput.Count(3_000, 360),
            new MicroJitterOutput.Count(14_000, 120),
            new MicroJitterOutput.Count(1_000_000, 120));
  }

  @Test
  void shouldGiveBackTheCountsItRoundedUpPerHour() {
    // 27 gaps in 30 s: ceil(27 * 120) = 3240 per hour; 1 gap: 120
    assertThat(MicroJitterOutput.count(new MicroJitterOutput.Count(2_000, 3240), 30)).isEqualTo(27);
    assertThat(MicroJitterOutput.count(new MicroJitterOutput.Count(2_000, 120), 30)).isEqualTo(1);
    // 7 gaps in 3599 s: ceil(7 * 3600 / 3599) = 8 per hour, and 8 * 3599 / 3600 rounds down to 7
    assertThat(MicroJitterOutput.count(new MicroJitterOutput.Count(2_000, 8), 3599)).isEqualTo(7);
  }

  @Test
  void shouldConvertABlockIntoBoundsInTheKitsUnits() {
    MicroJitterOutput.Block b = MicroJitterOutput.lastBlock(PRINTED).orElseThrow();

    ArmRow row = MicroJitterOutput.row(1, "PINNED (AffinityLock)", b);

    assertThat(row.cpu()).isEqualTo(1);
    assertThat(row.sampledNs()).isEqualTo(30_000_000_000L);
    assertThat(row.gaps()).isEqualTo(27 + 3 + 1 + 1);
    // the longest is in the 1 ms bucket: at least 1 ms, less than 2 ms
    assertThat(row.maxGap()).isEqualTo(new ArmRow.Amount(1_000_000, ArmRow.Bound.AT_LEAST));
    // 32 gaps (< 10,000): the p99.99 is the longest, at most the next threshold
    assertThat(row.p9999()).isEqualTo(new ArmRow.Amount(2_000_000, ArmRow.Bound.AT_MOST));
    long lost = 27 * 2_000 + 3 * 3_000 + 14_000 + 1_000_000;
    assertThat(row.lost()).isEqualTo(new ArmRow.Amount(lost, ArmRow.Bound.AT_LEAST));
    assertThat(row.lostShare()).isEqualTo((double) lost / 30_000_000_000L);
  }

  @Test
  void shouldPlaceTheP9999InTheBucketThatHoldsIt() {
    // 3600 s sampled: rates per hour are counts; 20,000 gaps of 2 us, 2 of 100 us, 1 of 100 ms
    MicroJitterOutput.Block b =
        MicroJitterOutput.lastBlock(
                List.of(
                    "After 3600 seconds, the average per hour was",
                    "2us\t20000",
                    "100us\t2",
                    "100ms\t1",
                    ""))
            .orElseThrow();

    ArmRow row = MicroJitterOutput.row(0, "PINNED (AffinityLock)", b);

    // ceil(0.9999 * 20,003) = 20,001: the first 100 us gap; at most 140 us
    assertThat(row.p9999()).isEqualTo(new ArmRow.Amount(140_000, ArmRow.Bound.AT_MOST));
    assertThat(row.maxGap()).isEqualTo(new ArmRow.Amount(100_000_000, ArmRow.Bound.AT_LEAST));
  }

  @Test
  void shouldReadTheExampleItsSourcePublishes() {
    // the first example at the end of MicroJitterSampler.java (an isolated Ryzen 5950X CPU, 1 h)
    List<String> example =
        List.of(
            "After 3600 seconds, the average per hour was",
            "2us     2571",
            "3us     2304",
            "4us     376",
            "6us     1",
            "10us    1",
            "20us    1",
            "30us    1",
            "40us    2",
            "60us    1",
            "");

    MicroJitterOutput.Block b = MicroJitterOutput.lastBlock(example).orElseThrow();
    ArmRow row = MicroJitterOutput.row(2, "PINNED (AffinityLock)", b);
    assertThat(row.gaps()).isEqualTo(2571 + 2304 + 376 + 1 + 1 + 1 + 1 + 2 + 1);
    assertThat(row.maxGap()).isEqualTo(new ArmRow.Amount(60_000, ArmRow.Bound.AT_LEAST));
  }

  @Test
  void shouldRefuseARowThatIsNotAThresholdAndARate() {
    assertThatThrownBy(
            () ->
                MicroJitterOutput.lastBlock(
                    List.of("After 15 seconds, the average per hour was", "2us=240", "")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "MicroJitterSampler row: 2us=240 (expected: a threshold, a tab, a rate per hour)");
  }

  @Test
  void shouldRefuseAThresholdItDoesNotPrint() {
    assertThatThrownBy(
            () ->
                MicroJitterOutput.lastBlock(
                    List.of("After 15 seconds, the average per hour was", "7us\t240", "")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "MicroJitterSampler threshold: 7us (expected: one of its thresholds, 2us to 100ms)");
  }

  @Test
  void shouldFindNoBlockBeforeTheFirstRoundEnded() {
    assertThat(MicroJitterOutput.lastBlock(PRINTED.subList(0, 2))).isEmpty();
    ArmRow none =
        MicroJitterOutput.row(
            1, "PINNED (AffinityLock)", new MicroJitterOutput.Block(15, List.of()));
    assertThat(none.gaps()).isZero();
    assertThat(none.maxGap()).isEqualTo(new ArmRow.Amount(0, ArmRow.Bound.EXACT));
    assertThat(none.lostShare()).isZero();
  }
}
