package io.github.affinitykit.core.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The topology as a value made by hand, without the host model's readers. */
class CpuTopologyValueTest {
  private static CpuInfo cpu(int id, CpuSet core) {
    return new CpuInfo(
        id,
        0,
        -1,
        -1,
        id / 2,
        core,
        CpuSet.empty(),
        0,
        CpuSet.empty(),
        CpuSet.empty(),
        CoreType.UNIFORM,
        -1);
  }

  @Test
  void shouldMakeTheGroupsAPartitionWhenCpusDisagree() {
    // CPU 0 says it shares its core with 1; CPU 1 says nothing: one core of both
    CpuTopology t =
        new CpuTopology(
            "sysfs",
            List.of(cpu(1, CpuSet.of(1)), cpu(0, CpuSet.of(0, 1)), cpu(2, CpuSet.of(2, 7))),
            CpuSet.parse("0-7"),
            CpuSet.parse("0-7"),
            CpuSet.parse("0-2"),
            CpuSet.parse("3-7"),
            Map.of(0, Map.of(0, 10)));
    assertThat(t.known()).isEqualTo(CpuSet.of(0, 1, 2));
    assertThat(t.cores()).containsExactly(CpuSet.of(0, 1), CpuSet.of(2));
    assertThat(t.cpu(1).core()).isEqualTo(CpuSet.of(0, 1));
    assertThat(t.smt()).isTrue();
    assertThat(t.possibleCount()).isEqualTo(8);
    assertThat(t.offline()).isEqualTo(CpuSet.parse("3-7"));
    assertThat(t.distance(0, 0)).isEqualTo(10);
    assertThat(t.distance(0, 1)).isEqualTo(-1);
    assertThat(t.numaNodes()).containsOnlyKeys(0);
  }

  @Test
  void shouldKeepItsOwnCopyOfTheDistances() {
    Map<Integer, Map<Integer, Integer>> distances = new HashMap<>();
    distances.put(0, new HashMap<>(Map.of(0, 10)));
    CpuTopology t =
        new CpuTopology(
            "sysfs",
            List.of(cpu(0, CpuSet.of(0))),
            CpuSet.of(0),
            CpuSet.of(0),
            CpuSet.of(0),
            CpuSet.empty(),
            distances);
    distances.get(0).put(0, 99);
    distances.put(1, Map.of(1, 10));
    assertThat(t.distance(0, 0)).isEqualTo(10);
    assertThat(t.distance(1, 1)).isEqualTo(-1);
  }

  @Test
  void shouldRefuseATopologyWithoutCpus() {
    assertThatThrownBy(
            () ->
                new CpuTopology(
                    "sysfs",
                    List.of(),
                    CpuSet.empty(),
                    CpuSet.empty(),
                    CpuSet.empty(),
                    CpuSet.empty(),
                    Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cpus: [] (expected: at least one CPU)");
  }
}
