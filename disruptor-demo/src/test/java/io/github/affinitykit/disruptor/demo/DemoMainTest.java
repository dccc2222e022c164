package io.github.affinitykit.disruptor.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.AffinityBackend;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuReservations;
import io.github.affinitykit.core.HostCpus;
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

/** The demo's flags, and a tiny run of two rows (no timing is asserted). */
class DemoMainTest {
  @TempDir Path locks;

  @Test
  void shouldParseFlagsIntoRowsAndNameTheRuleOfABadValue() {
    DemoOptions quick = DemoOptions.parse("--quick", "--shapes", "3", "--pinning", "all");
    DemoOptions full = DemoOptions.parse();

    assertThat(quick.burstMs()).isLessThan(full.burstMs());
    assertThat(full.scenarios()).hasSize(30);
    assertThat(quick.scenarios())
        .hasSize(5)
        .allMatch(s -> s.consumers() == 3 && s.pinning() == Pinning.ALL);
    assertThat(quick.scenarios().get(0).strategy()).contains(WaitKind.BUSY_SPIN);
    assertThat(quick.scenarios().get(4).strategy()).isEmpty();
    assertThatThrownBy(() -> DemoOptions.parse("--rate", "0"))
        .hasMessage("--rate: 0 (expected: an integer >= 1)");
    assertThatThrownBy(() -> DemoOptions.parse("--pinning", "some"))
        .hasMessage("--pinning: some (expected: none, consumers or all)");
    assertThatThrownBy(() -> DemoOptions.parse("--burst-ms"))
        .hasMessageStartingWith("--burst-ms: no value (usage: disruptor-demo");
  }

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
