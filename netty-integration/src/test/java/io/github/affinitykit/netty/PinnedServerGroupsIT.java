package io.github.affinitykit.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.cpu.CpuSet;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** The boss line of {@link PinnedServerGroups} when another process holds a CPU (a child JVM). */
@EnabledOnOs(OS.LINUX)
@Timeout(60)
class PinnedServerGroupsIT {
  @TempDir Path locks;
  private int first;
  private int last;

  @BeforeEach
  void setUp() {
    AffinityKit probe = LiveKit.create(locks);
    assumeTrue(probe.backend().isSupported(), probe.backend().reason());
    assumeTrue(probe.host().reachable().size() >= 2, "needs 2 CPUs");
    first = probe.host().reachable().first();
    last = probe.host().reachable().last();
  }

  @Test
  void shouldTellCpusHeldByAnotherProcessApartFromFreeOnesInTheBossLine() throws Exception {
    AffinityKit kit = LiveKit.create(locks, CpuSet.of(last));
    Process other = HoldLock.start(kit.reservations().lockFile(last));
    try (PinnedServerGroups groups =
        PinnedServerGroups.builder(kit).transport(Transport.NIO).build()) {
      LoopAssignment boss = groups.report().loop("boss", 0).orElseThrow();
      assertThat(boss.status()).isEqualTo(LeaseStatus.UNPINNED);
      assertThat(boss.reason())
          .contains("no CPU of pool " + last + " left for boss-0")
          .contains("cpu " + last + ": " + kit.reservations().lockFile(last) + " is locked by pid")
          .endsWith("runs unpinned on CPUs " + first);
    } finally {
      other.destroyForcibly().waitFor();
    }
  }
}
