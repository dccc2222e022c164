package io.github.affinitykit.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.github.affinitykit.core.testkit.FakeHostFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PressureTest {
  @Test
  void shouldReadBothLinesWhenTheFileIsThisMachines(@TempDir Path root) {
    new FakeHostFiles(root)
        .file(
            "proc/pressure/cpu",
            "some avg10=27.26 avg60=8.85 avg300=13.45 total=5082174793\n"
                + "full avg10=0.00 avg60=0.00 avg300=0.00 total=0");

    Pressure p = Pressure.read(root, Pressure.Resource.CPU).orElseThrow();

    assertThat(p.some()).isEqualTo(new Pressure.Stall(27.26, 8.85, 13.45, 5082174793L));
    assertThat(p.full()).contains(new Pressure.Stall(0, 0, 0, 0));
  }

  @Test
  void shouldReadTheResourcesFileWhenAskedForMemoryOrIo(@TempDir Path root) {
    new FakeHostFiles(root)
        .file("proc/pressure/memory", "some avg10=1.00 avg60=0.50 avg300=0.10 total=7")
        .file("proc/pressure/io", "some avg10=2.00 avg60=0.50 avg300=0.10 total=9");

    assertThat(Pressure.read(root, Pressure.Resource.MEMORY).orElseThrow().some().totalUs())
        .isEqualTo(7);
    assertThat(Pressure.read(root, Pressure.Resource.IO).orElseThrow().some().avg10())
        .isEqualTo(2.0);
    assertThat(Pressure.read(root, Pressure.Resource.CPU)).isEmpty();
  }

  @Test
  void shouldHaveNoFullLineWhenTheKernelPrintsOnlySome() {
    Pressure p = Pressure.parse("some avg10=0.00 avg60=0.00 avg300=0.00 total=12").orElseThrow();

    assertThat(p.some().totalUs()).isEqualTo(12);
    assertThat(p.full()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "full avg10=0.00 avg60=0.00 avg300=0.00 total=0",
        "some avg10=NaN avg60=0.00 avg300=0.00 total=0",
        "some avg10=1e3 avg60=0.00 avg300=0.00 total=0",
        "some avg10=-1.00 avg60=0.00 avg300=0.00 total=0",
        "some avg10=0.00 avg60=0.00 avg300=0.00 total=-5",
        "some avg10=0.00 avg60=0.00 avg300=0.00",
        "some avg60=0.00 avg10=0.00 avg300=0.00 total=1",
        "some avg10=. avg60=0.00 avg300=0.00 total=1",
        "some avg10=0.00 avg60=0.00 avg300=0.00 total=1\nfull avg10=x avg60=0 avg300=0 total=1",
      })
  void shouldBeEmptyWhenTheSomeLineIsMissingOrALineIsGarbled(String text) {
    assertThat(Pressure.parse(text)).isEmpty();
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldReadThisMachinesCpuPressureWhenTheKernelHasPsi() {
    assumeThat(Files.isReadable(Path.of("/proc/pressure/cpu"))).isTrue();

    Pressure p = Pressure.cpu().orElseThrow();

    assertThat(p.some().totalUs()).isNotNegative();
    assertThat(p.some().avg10()).isBetween(0.0, 100.0);
  }
}
