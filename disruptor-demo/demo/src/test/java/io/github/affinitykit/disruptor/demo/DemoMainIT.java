package io.github.affinitykit.disruptor.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.disruptor.Pinning;
import io.github.affinitykit.disruptor.WaitKind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** A tiny run of the demo, two rows pinned for real (no timing is asserted). */
class DemoMainIT {
  @TempDir Path locks;

  @Test
  @EnabledOnOs(OS.LINUX)
  @Timeout(30)
  void shouldPrintATableRowPerScenarioAndTheChosenStrategysPlacement() throws Exception {
    AffinityKit kit =
        AffinityKit.create(
            HostCpus.probe(), AffinityBackend.detect(), CpuReservations.inDirectory(locks));
    DemoOptions o =
        new DemoOptions(
            20,
            500,
            50_000,
            10,
            0,
            256,
            0,
            List.of(
                new Scenario(1, Pinning.CONSUMERS, Optional.empty()),
                new Scenario(3, Pinning.ALL, Optional.of(WaitKind.SLEEPING))));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    boolean ok = DemoMain.run(kit, o, new PrintStream(bytes, true, StandardCharsets.UTF_8));

    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(ok).as(out).isTrue();
    assertThat(out).contains("| shape | pinning | strategy |");
    assertThat(out).contains("| 1P→1C | consumers | chosen: ");
    assertThat(out).contains("| 1P→3C | all | sleeping | ");
    assertThat(out).contains("Placement-chosen strategies:\n- 1P→1C pinning consumers: ");
    assertThat(kit.pinnedThreadIds()).isEmpty();
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
  }
}
