package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SoakTrendTest {
  private static List<SoakSample> threads(int n, double perHour, double noise, long seed) {
    Random r = new Random(seed);
    List<SoakSample> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double seconds = i * 5.0;
      int threads = (int) Math.round(100 + perHour * seconds / 3600 + noise * r.nextGaussian());
      out.add(new SoakSample(seconds, 1, 1, 1, 1, 30, threads, CpuSet.of(0), 0));
    }
    return out;
  }

  @Test
  void shouldCallANoisyFlatLineBounded() {
    for (long seed = 0; seed < 50; seed++) {
      SoakTrend t = SoakTrend.of(SoakSample.Resource.THREADS, threads(360, 0, 3, seed), 900);
      assertThat(t.verdict())
          .as("seed %d: %s", seed, t.line())
          .isEqualTo(SoakTrend.Verdict.BOUNDED);
    }
  }

  @Test
  void shouldCallAResourceThatGrowsAThreadAMinuteGrowing() {
    SoakTrend t = SoakTrend.of(SoakSample.Resource.THREADS, threads(360, 60, 3, 1), 900);
    assertThat(t.verdict()).isEqualTo(SoakTrend.Verdict.GROWING);
    assertThat(t.lowPerHour()).isPositive().isLessThan(60).isLessThan(t.highPerHour());
    assertThat(t.line()).contains("threads", "GROWING", "/h [");
  }

  @Test
  void shouldCallGrowthUnderTheThresholdBounded() {
    // 4 threads an hour on 100: 4%/h, under the 5%/h a leak must reach (and its floor, 10/h)
    SoakTrend t = SoakTrend.of(SoakSample.Resource.THREADS, threads(720, 4, 0.2, 2), 1800);
    assertThat(t.slopePerHour()).isBetween(3.0, 5.0);
    assertThat(t.verdict()).isEqualTo(SoakTrend.Verdict.BOUNDED);
  }

  @Test
  void shouldFitOnlyFromWhereTheWarmUpIsOver() {
    List<SoakSample> s = threads(120, 0, 0.5, 3);
    for (int i = 0; i < 60; i++) { // a warm-up climbing to the plateau
      SoakSample x = s.get(i);
      s.set(i, new SoakSample(x.seconds(), 1, 1, 1, 1, 30, 40 + i, CpuSet.of(0), 0));
    }
    assertThat(SoakTrend.of(SoakSample.Resource.THREADS, s, 300).verdict())
        .isEqualTo(SoakTrend.Verdict.BOUNDED);
    assertThat(SoakTrend.of(SoakSample.Resource.THREADS, s, 0).verdict())
        .isEqualTo(SoakTrend.Verdict.GROWING);
  }

  @Test
  void shouldSayUnknownWithTooFewSamplesOrNone() {
    assertThat(SoakTrend.of(SoakSample.Resource.THREADS, threads(5, 0, 1, 4), 0).verdict())
        .isEqualTo(SoakTrend.Verdict.UNKNOWN);
    List<SoakSample> unknownHeap = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      unknownHeap.add(new SoakSample(i, 1, -1, 1, 1, 30, 10, CpuSet.of(0), 0));
    }
    assertThat(SoakTrend.of(SoakSample.Resource.HEAP_AFTER_GC, unknownHeap, 0).verdict())
        .isEqualTo(SoakTrend.Verdict.UNKNOWN);
  }

  @Test
  void shouldJudgeTheResidentSetOnlyInALongSoak() {
    assertThat(SoakTrend.judged(SoakSample.Resource.RSS, java.time.Duration.ofMinutes(2)))
        .isFalse();
    assertThat(SoakTrend.judged(SoakSample.Resource.RSS, java.time.Duration.ofMinutes(30)))
        .isTrue();
    assertThat(SoakTrend.judged(SoakSample.Resource.FDS, java.time.Duration.ofMinutes(2))).isTrue();
    SoakTrend t = SoakTrend.of(SoakSample.Resource.THREADS, threads(360, 60, 3, 1), 900, false);
    assertThat(t.verdict()).isEqualTo(SoakTrend.Verdict.UNJUDGED);
    assertThat(t.slopePerHour()).isPositive();
  }
}
