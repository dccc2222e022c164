package io.github.affinitykit.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.testkit.FakeHostFiles;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CpuTimesTest {
  private static final long TICK = TaskReader.NS_PER_TICK;

  @Test
  void shouldReadEveryKindWhenTheFileIsThisMachines(@TempDir Path root) {
    new FakeHostFiles(root)
        .file(
            "proc/stat",
            "cpu  1173997 5 159958 285991 13330 6 1795 887 3 2\n"
                + "cpu0 584307 0 75137 151901 5876 0 385 445 0 0\n"
                + "intr 123 0 9\nctxt 456\nbtime 1700000000");

    CpuTimes t = CpuTimes.read(root).orElseThrow();

    assertThat(t.userNs()).isEqualTo(1173997 * TICK);
    assertThat(t.niceNs()).isEqualTo(5 * TICK);
    assertThat(t.systemNs()).isEqualTo(159958 * TICK);
    assertThat(t.idleNs()).isEqualTo(285991 * TICK);
    assertThat(t.iowaitNs()).isEqualTo(13330 * TICK);
    assertThat(t.irqNs()).isEqualTo(6 * TICK);
    assertThat(t.softirqNs()).isEqualTo(1795 * TICK);
    assertThat(t.stealNs()).isEqualTo(887 * TICK);
    assertThat(t.guestNs()).isEqualTo(3 * TICK);
    assertThat(t.guestNiceNs()).isEqualTo(2 * TICK);
    assertThat(t.busyNs()).isEqualTo((1173997 + 5 + 159958 + 6 + 1795 + 887) * TICK);
  }

  @Test
  void shouldReadMissingKindsAsZeroWhenTheKernelPrintsOnlyFour() {
    CpuTimes t = CpuTimes.parse("cpu 10 20 30 40").orElseThrow();

    assertThat(t.idleNs()).isEqualTo(40 * TICK);
    assertThat(t.stealNs()).isZero();
    assertThat(t.busyNs()).isEqualTo(60 * TICK);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "cpu0 1 2 3 4",
        "cpu 1 2 3",
        "cpu 1 2 -3 4",
        "cpu 1 2 3 4 x",
        "cpu 1 2 3 4 922337203685477581",
        "cpu 1 2 3 4 1234567890123456789",
        "cpu 1 2 3 1e4",
      })
  void shouldBeEmptyWhenTheCpuLineIsMissingOrGarbled(String text) {
    assertThat(CpuTimes.parse(text)).isEmpty();
  }

  @Test
  void shouldBeEmptyWhenTheFileIsAbsent(@TempDir Path root) {
    assertThat(CpuTimes.read(root)).isEmpty();
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldReadGrowingCountersWhenLive() {
    CpuTimes first = CpuTimes.read().orElseThrow();
    CpuTimes second = CpuTimes.read().orElseThrow();

    assertThat(first.busyNs()).isPositive();
    assertThat(second.busyNs()).isGreaterThanOrEqualTo(first.busyNs());
    assertThat(second.idleNs()).isGreaterThanOrEqualTo(first.idleNs());
  }
}
