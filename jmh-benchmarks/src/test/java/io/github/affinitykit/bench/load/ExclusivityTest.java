package io.github.affinitykit.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExclusivityTest {
  @Test
  void shouldSayJvmLevelWithoutIsolateWhateverTheLogSays(@TempDir Path dir) throws IOException {
    Path log = Files.writeString(dir.resolve("gateway.log"), "isolation active: cpus 1 by X\n");

    assertThat(Exclusivity.describe(false, log))
        .startsWith("JVM-level: loops pinned, the rest of the gateway JVM confined")
        .contains("--isolate");
  }

  @Test
  void shouldCountWhatTheGatewaysReportedWhenIsolating(@TempDir Path dir) throws IOException {
    Path log =
        Files.writeString(
            dir.resolve("gateway.log"),
            "### exclusive trial 1: java ...\n"
                + "isolation active: cpus 2-3 by CGROUP_V1_CPUSET (4 residue kinds stay)\n"
                + "### exclusive trial 2: java ...\n"
                + "isolation refused: not root: writing /sys/fs/cgroup needs CAP_SYS_ADMIN\n"
                + "  isolation active: cpus 2-3 by CGROUP_V1_CPUSET (4 residue kinds stay)\n");

    assertThat(Exclusivity.describe(true, log))
        .isEqualTo(
            "runtime isolation of the server's worker CPUs (--isolate): active in 2 of 3"
                + " exclusive gateway(s) (cpus 2-3 by CGROUP_V1_CPUSET (4 residue kinds stay));"
                + " refused in 1: not root: writing /sys/fs/cgroup needs CAP_SYS_ADMIN");
  }

  @Test
  void shouldSayNoneWasActiveWhenTheLogIsMissing(@TempDir Path dir) {
    assertThat(Exclusivity.describe(true, dir.resolve("missing.log")))
        .isEqualTo(
            "runtime isolation of the server's worker CPUs (--isolate): active in 0 of 0"
                + " exclusive gateway(s)");
  }
}
