package io.github.affinitykit.core.os;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.CpuSet;
import org.junit.jupiter.api.Test;

/** The direct-mapped affinity calls' mask layout (no system call). */
class AffinityCallsTest {
  @Test
  void shouldMapEveryCpuToOneBitOfTheKernelMask() {
    assertThat(AffinityCalls.byteOf(0)).isZero();
    assertThat(AffinityCalls.byteOf(9)).isEqualTo(1); // little-endian words, as on x86 and arm
    for (int cpu = 0; cpu < CpuSet.MAX_CPUS; cpu++) {
      int at = AffinityCalls.byteOf(cpu);
      assertThat(AffinityCalls.firstCpuOf(at) + cpu % 8).as("cpu %d", cpu).isEqualTo(cpu);
    }
  }
}
