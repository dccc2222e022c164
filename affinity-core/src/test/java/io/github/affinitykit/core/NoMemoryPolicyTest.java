package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.testkit.FixtureKits;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core without affinity-numa (its test class path has none): a memory policy asked by name never
 * throws; each binding is refused and says which artifact is missing; the group pins as usual, and
 * a group that asks for none carries no memory binding at all.
 */
@Timeout(30)
class NoMemoryPolicyTest {
  private static final String MISSING =
      "NUMA memory policy needs io.github.affinitykit:affinity-numa on the class path";

  @TempDir Path root;

  private AffinityKit kit() {
    return FixtureKits.isolating(root, 4);
  }

  @Test
  void shouldSayTheArtifactIsMissingWhenAGroupAsksForAPolicyAndPinAsUsual() {
    ThreadMemoryPolicy local = ThreadMemoryPolicy.named("local");
    assertThat(local.checkNodes(List.of(0))).isSameAs(local);
    try (CpuGroup group = kit().group("mem").memoryPolicy(local).build()) {
      Seat seat = group.join();
      assertThat(seat.memoryPolicy().orElseThrow())
          .hasToString("memory local: LEFT_ALONE (no thread has bound the seat yet)");
      try (CpuLease lease = seat.bind()) {
        assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
        ThreadMemoryPolicy.Binding b = lease.memoryPolicy().orElseThrow();
        assertThat(b.inForce()).isFalse();
        assertThat(b).hasToString("memory local: FAILED (" + MISSING + ")");
        assertThat(lease).asString().endsWith(", memory local: FAILED (" + MISSING + ")]");
        assertThat(seat.memoryPolicy()).containsSame(b);
      }
    }
    assertThat(local).hasToString("local (" + MISSING + ")");
  }

  @Test
  void shouldCarryNoMemoryBindingWhenTheGroupAsksForNone() {
    try (CpuGroup group = kit().group("plain").build()) {
      Seat seat = group.join();
      try (CpuLease lease = seat.bind()) {
        assertThat(lease.memoryPolicy()).isEmpty();
        assertThat(seat.memoryPolicy()).isEmpty();
        assertThat(lease).asString().doesNotContain("memory");
      }
    }
  }
}
