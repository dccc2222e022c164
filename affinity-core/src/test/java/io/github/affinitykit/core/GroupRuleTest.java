package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.RunOutPolicy;
import io.github.affinitykit.core.reservation.CpuReservations;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The group rule's grammar: every option, and every error in the house form. */
class GroupRuleTest {
  @TempDir Path locks;

  private CpuGroupBuilder builder(String name) {
    HostCpus host = HostCpus.probe();
    return AffinityKit.create(
            host, AffinityBackend.unsupported("parser test"), CpuReservations.inDirectory(locks))
        .group(name);
  }

  @Test
  void shouldSetEveryOptionItNames() {
    CpuGroupBuilder b = builder("g");
    GroupRule.parse(
            "g",
            "cpus:0,1,placement:different_core,SAME_SOCKET,runout:share,isolate:true,wholecores:true")
        .applyTo(b);
    assertThat(b.pool()).isEqualTo(CpuSet.of(0, 1));
    assertThat(b.placementList()).containsExactly(Placement.DIFFERENT_CORE, Placement.SAME_SOCKET);
    assertThat(b.runOutPolicy()).isEqualTo(RunOutPolicy.SHARE);
    assertThat(b.isolates()).isTrue();
    assertThat(b.wholeCoreSeats()).isTrue();
    b = builder("g");
    GroupRule.parse("g", "explicit:1,1,0,unpinned:off here,unpinned-mask:none,memory:local")
        .applyTo(b);
    assertThat(b.cpuList()).containsExactly(1, 1, 0);
    assertThat(b.unpinnedReason()).contains("off here");
    assertThat(b.resolvedMask()).isEqualTo(CpuSet.empty());
    assertThat(b.memory()).isPresent();
    b = builder("g").cpus(0).pool(CpuSet.of(0));
    GroupRule.parse("g", "count:2, runout:FAIL").applyTo(b);
    assertThat(b.countLimit()).isEqualTo(2);
    assertThat(b.cpuList()).as("a rule that says where clears the code's where").isEmpty();
    assertThat(b.runOutPolicy()).isEqualTo(RunOutPolicy.FAIL);
  }

  @Test
  void shouldLeaveWhatItDoesNotName() {
    CpuGroupBuilder b = builder("g").runOut(RunOutPolicy.SHARE).cpus(0);
    GroupRule.parse("g", "placement:ANY").applyTo(b);
    assertThat(b.runOutPolicy()).isEqualTo(RunOutPolicy.SHARE);
    assertThat(b.cpuList()).containsExactly(0);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "count:0|count:0 (expected: a positive number of CPUs)",
        "count:x|count:x (expected: a positive number of CPUs)",
        "cpus:5-2|cpus:5-2 (expected: a CPU list such as 2-5 or 0,2)",
        "cpus:|cpus: (expected: a CPU list such as 2-5 or 0,2)",
        "explicit:1,-1|explicit:1,-1 (expected: CPUs such as 2,3,3: member i on the i-th)",
        "placement:NEAR|placement:NEAR (expected: placements of [SAME_CORE, SAME_SOCKET,"
            + " DIFFERENT_CORE, DIFFERENT_SOCKET, ANY, SAME_NUMA_NODE, DIFFERENT_NUMA_NODE,"
            + " SAME_L3])",
        "runout:WAIT|runout:WAIT (expected: one of [UNPINNED, SHARE, FAIL])",
        "isolate:yes|isolate:yes (expected: true or false)",
        "unpinned:|unpinned: (expected: the reason pinning is off)",
        "unpinned-mask:|unpinned-mask: (expected: a CPU list such as 2-5 or 0,2, or none)",
        "count:1,explicit:0|count:1 (expected: no count beside explicit CPUs)",
        "count:1,count:2|count:2 (expected: key:value, each key once, keys [count, cpus,"
            + " explicit, placement, runout, memory, isolate, wholecores, unpinned,"
            + " unpinned-mask])",
        "size:1|size:1 (expected: key:value, each key once, keys [count, cpus, explicit,"
            + " placement, runout, memory, isolate, wholecores, unpinned,"
            + " unpinned-mask])",
        "DIFFERENT_CORE|DIFFERENT_CORE (expected: key:value, each key once, keys [count, cpus,"
            + " explicit, placement, runout, memory, isolate, wholecores, unpinned,"
            + " unpinned-mask])",
      })
  void shouldNameTheOptionAndTheRuleOfEveryError(String rule, String message) {
    assertThatThrownBy(() -> GroupRule.parse("affinitykit.group.x", rule))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("affinitykit.group.x: " + message);
  }

  @Test
  void shouldNeverHalfApplyABadRule() {
    CpuGroupBuilder b = builder("g").runOut(RunOutPolicy.SHARE);
    assertThatThrownBy(() -> b.rule("runout:FAIL,count:0"))
        .hasMessage("g: count:0 (expected: a positive number of CPUs)");
    assertThat(b.runOutPolicy()).isEqualTo(RunOutPolicy.SHARE);
    assertThat(b.countLimit()).isZero();
    assertThat(b.rule("runout:FAIL").runOutPolicy()).isEqualTo(RunOutPolicy.FAIL);
    assertThat(GroupRule.parse("g", " count:1 ").toString()).isEqualTo("count:1");
    assertThat(List.of(b.placementList())).hasSize(1);
  }
}
