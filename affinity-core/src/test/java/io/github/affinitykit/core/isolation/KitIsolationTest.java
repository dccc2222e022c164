package io.github.affinitykit.core.isolation;

import static io.github.affinitykit.core.isolation.IsolatorPlanTest.dir;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The kit's isolation on a fixture tree: a thread pinned onto an isolated CPU is let into the
 * partition before it binds, and taken out when its lease closes; the kit forgets a closed one.
 */
class KitIsolationTest {
  @Test
  void shouldLetAThreadPinnedOnTheIsolatedCpuIntoThePartitionAndOutAgain(TestInfo info)
      throws IOException {
    Path dir = dir(info);
    IsolationTree t =
        IsolationTree.create(dir.resolve("root"), 4).typical().cgroupV2("/", "cpuset");
    RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, 3));
    AffinityKit kit =
        AffinityKit.create(
            HostCpus.probe(t.root()), backend, CpuReservations.inDirectory(dir.resolve("locks")));
    Isolator isolator = Isolator.at(t.root(), new TreeAffinity(t.root()), dir.resolve("journal"));
    String cg = "sys/fs/cgroup/affinitykit-" + ProcessHandle.current().pid();

    try (Isolation iso = kit.isolate(CpuSet.of(3), isolator)) {
      assertThat(kit.isolation()).containsSame(iso);
      try (CpuLease lease = kit.pinCurrentThread(3)) {
        assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
        assertThat(t.read(cg + "/cgroup.threads")).isEqualTo(Integer.toString(lease.tid()));
        assertThat(backend.getAffinity(lease.tid())).isEqualTo(CpuSet.of(3));
      }
      assertThat(t.read("sys/fs/cgroup/cgroup.threads"))
          .isEqualTo(String.valueOf(backend.currentThreadId()));
    }
    assertThat(kit.isolation()).isEmpty();
    assertThat(t.root().resolve(cg)).doesNotExist();
  }
}
