package io.github.affinitykit.core.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuInfo;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The real host: only what holds on any Linux machine. */
@EnabledOnOs(OS.LINUX)
class CpuTopologyLiveTest {
  @Test
  void shouldPartitionTheOnlineCpusWhenLoadingThisHost() {
    CpuTopology t = TopologyReader.load(Path.of("/"));

    assertThat(t.known().isEmpty()).isFalse();
    assertThat(t.known()).isEqualTo(t.online());
    assertThat(t.possible().containsAll(t.online())).isTrue();
    assertThat(t.possibleCount()).isGreaterThan(t.known().last());
    assertThat(t.cpus()).extracting(CpuInfo::cpu).isSorted();
    for (CpuInfo c : t.cpus()) {
      assertThat(c.core().contains(c.cpu())).as("core of %d", c.cpu()).isTrue();
      assertThat(containing(t.cores(), c.cpu())).as("cores of %d", c.cpu()).isEqualTo(1);
      assertThat(containing(t.packages(), c.cpu())).as("packages of %d", c.cpu()).isEqualTo(1);
    }
  }

  private static long containing(List<CpuSet> groups, int cpu) {
    return groups.stream().filter(g -> g.contains(cpu)).count();
  }
}
