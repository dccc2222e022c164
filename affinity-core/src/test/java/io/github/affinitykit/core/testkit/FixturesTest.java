package io.github.affinitykit.core.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class FixturesTest {
  @Test
  void shouldUnpackEveryFixtureWithSysAndProc() {
    for (String name : Fixtures.HWLOC) {
      assertThat(Fixtures.root(name).resolve("sys/devices/system/cpu")).as(name).isDirectory();
      assertThat(Fixtures.console(name)).as(name).contains("PU L#0");
    }
    assertThat(Files.isRegularFile(Fixtures.root(Fixtures.E5).resolve("proc/cmdline"))).isTrue();
  }
}
