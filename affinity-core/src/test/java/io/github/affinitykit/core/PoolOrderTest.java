package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pool's order reaches every way of pinning: a thread pinned without naming a CPU takes a CPU
 * on a wholly isolated core before an isolated hyper-thread whose sibling does general work.
 */
@Timeout(30)
class PoolOrderTest {
  @TempDir Path root;
  @TempDir Path locks;

  @Test
  void shouldPinTheCurrentThreadOnAWholeIsolatedCoreBeforeAHalfIsolatedOne() {
    // 4 cores x 2 threads, siblings n and n+4: 1's sibling 5 is not isolated, 2+6 and 3+7 are
    HostCpus host = FakeHost.create(root, 8, 2).isolated("1-3,6-7").probe();
    RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, 7));
    AffinityKit kit = AffinityKit.create(host, backend, CpuReservations.inDirectory(locks));

    try (CpuLease first = kit.pinCurrentThread()) {
      assertThat(first.cpu()).isEqualTo(2);
    }
    assertThat(kit.pool().order(host.topology())).containsExactly(2, 3, 6, 7, 1);
  }
}
