package io.github.affinitykit.jitter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A sampler's settings: each one refused outside its range with the value and the rule. */
class JitterSamplerSettingsTest {
  @TempDir Path root;
  @TempDir Path locks;
  private JitterSampler sampler;

  @BeforeEach
  void setUp() {
    AffinityKit kit =
        AffinityKit.create(
            FakeHost.create(root, 4, 1).probe(),
            new RecordingAffinityBackend(CpuSet.range(0, 3)),
            CpuReservations.inDirectory(locks));
    sampler = JitterSampler.on(kit, CpuSet.of(2));
  }

  @Test
  void shouldRefuseSettingsOutsideTheirRangeSayingTheRule() {
    assertThatThrownBy(() -> JitterSampler.on(null, CpuSet.of(1))).hasMessage("kit");
    assertThatThrownBy(() -> sampler.window(Duration.ZERO))
        .hasMessage("window: PT0S (expected: 1 ms to 24 h)");
    assertThatThrownBy(() -> sampler.window(Duration.ofDays(2)))
        .hasMessage("window: PT48H (expected: 1 ms to 24 h)");
    assertThatThrownBy(() -> sampler.floor(Duration.ofNanos(50)))
        .hasMessage("floor: PT0.00000005S (expected: 100 ns to 1 ms)");
    assertThatThrownBy(() -> sampler.threshold(Duration.ofNanos(500)))
        .hasMessage("threshold: PT0.0000005S (expected: the floor, 1000 ns, to 24 h)");
    assertThatThrownBy(() -> sampler.threshold(Duration.ofSeconds(Long.MAX_VALUE)))
        .hasMessageStartingWith("threshold: PT")
        .hasMessageEndingWith(" (expected: the floor, 1000 ns, to 24 h)");
    assertThatThrownBy(() -> sampler.floor(Duration.ofSeconds(Long.MAX_VALUE)))
        .hasMessageEndingWith(" (expected: 100 ns to 1 ms)");
    assertThatThrownBy(() -> sampler.largest(0)).hasMessage("largest: 0 (expected: 1 to 1000)");
    assertThatThrownBy(() -> sampler.rereads(-1)).hasMessage("rereads: -1 (expected: 0 to 1000)");
    assertThatThrownBy(() -> sampler.root(null)).hasMessage("root");
    assertThatThrownBy(() -> sampler.group(null)).hasMessage("group");
  }

  @Test
  void shouldRefuseAnEmptySetOfCpus() {
    assertThatThrownBy(() -> JitterSampler.on(sampler.kit(), CpuSet.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cpus: empty (expected: at least one CPU)");
  }

  @Test
  void shouldRaiseTheThresholdToAHigherFloorAndKeepEachSettingApart() {
    JitterSampler s = sampler.floor(Duration.ofMillis(1));
    assertThat(s.settings().floorNs()).isEqualTo(1_000_000);
    assertThat(s.settings().thresholdNs()).isEqualTo(1_000_000);
    assertThat(sampler.settings().thresholdNs())
        .isEqualTo(JitterSampler.DEFAULT_THRESHOLD.toNanos());
    JitterSampler t = sampler.window(Duration.ofMillis(5)).largest(3).rereads(0).audit(false);
    assertThat(t.settings().window()).isEqualTo(Duration.ofMillis(5));
    assertThat(t.settings().largest()).isEqualTo(3);
    assertThat(t.settings().rereads()).isZero();
    assertThat(t.settings().audit()).isFalse();
    assertThat(t.toString())
        .isEqualTo("JitterSampler[cpus=2, window=PT0.005S, floor=1000 ns, threshold=10000 ns]");
  }
}
