package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What one load measured around the server, the same for a calibration probe and a trial: the
 * server's CPU, other processes', the client JVM's, and the server's switches per message.
 */
class MeasurementTest {
  private static final long SECOND = 1_000_000_000L;

  /** A 2 s window: server 1.6 s of CPU, client JVM 1.8 s, kernel threads 0.1 s, machine 3.7 s. */
  private static Measurement twoSeconds() {
    ServerStats from = new ServerStats(10 * SECOND, 5 * SECOND, 100, 10, 0, 0, 50 * SECOND, 0, 0);
    ServerStats to =
        new ServerStats(
            12 * SECOND,
            5 * SECOND + 1_600_000_000L,
            1_100,
            510,
            4,
            0,
            50 * SECOND + 3_700_000_000L,
            1_800_000_000L,
            100_000_000L);
    LoadResult load = new LoadResult(2_000, 2_000, 0, 0, 0, 2 * SECOND, Trials.load(1).latencyNs());
    Warmup w = new Warmup(5 * SECOND, true, 5, 80, 1_000, List.of(800.0, 800.0, 800.0));
    return new Measurement(load, w, from, to, Double.NaN);
  }

  @Test
  void shouldMeasureTheServerTheClientAndOthersOverTheWindow() {
    Measurement m = twoSeconds();

    assertThat(m.cpuPercent()).isCloseTo(80, within(1e-9));
    assertThat(m.clientCpuPercent()).isCloseTo(90, within(1e-9));
    assertThat(m.othersCpuPercent()).isCloseTo(10, within(1e-9)); // 3.7 - 1.6 - 1.8 - 0.1 s
    assertThat(m.switchesPerMessage()).isCloseTo(0.75, within(1e-9)); // (1,000 + 500) / 2,000
  }

  @Test
  void shouldDeriveATrialFromTheSameFigures() {
    Measurement m = twoSeconds();

    Trial t =
        Trial.of(
            Scenario.UNPINNED, 0, 1000, m, new CapacityRamp.Result(0, false, List.of()), 10, 100);

    assertThat(t.serverCpuPercent()).isEqualTo(m.cpuPercent());
    assertThat(t.othersCpuPercent()).isEqualTo(m.othersCpuPercent());
    assertThat(t.clientCpuPercent()).isEqualTo(m.clientCpuPercent());
    assertThat(t.switchesPerMessage()).isEqualTo(m.switchesPerMessage());
    assertThat(t.cpuUsPerMessage()).isCloseTo(800, within(1e-9));
    assertThat(t.contaminated()).isFalse(); // 10% is not over a 10% threshold
  }
}
