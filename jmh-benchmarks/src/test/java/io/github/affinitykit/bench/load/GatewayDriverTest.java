package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** A calibration probe counts as kept up by throughput and loss, not by a cold probe's p99. */
class GatewayDriverTest {
  private static LoadResult result(long received, long lost, long p99Ns) {
    Histogram h = new Histogram(3);
    for (int i = 0; i < 100; i++) {
      h.recordValue(i < 98 ? 100_000 : p99Ns);
    }
    return new LoadResult(received, received, lost, 0, 0, 1_000_000_000L, h);
  }

  @Test
  void shouldCountAProbeKeptUpWhenItEchoesTheOfferedRateEvenWithASlowTail() {
    assertThat(GatewayDriver.keptUp(result(10_000, 0, 50_000_000), 10_000)).isTrue();
  }

  @Test
  void shouldNotCountAProbeKeptUpWhenItFallsBehindOrLoses() {
    assertThat(GatewayDriver.keptUp(result(9_000, 0, 100_000), 10_000)).isFalse();
    assertThat(GatewayDriver.keptUp(result(10_000, 3, 100_000), 10_000)).isFalse();
    assertThat(GatewayDriver.keptUp(result(0, 0, 100_000), 10_000)).isFalse();
  }
}
