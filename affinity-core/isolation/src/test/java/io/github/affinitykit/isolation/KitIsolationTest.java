package io.github.affinitykit.isolation;

import static io.github.affinitykit.isolation.IsolatorPlanTest.dir;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.PinnedThreadFactory;
import io.github.affinitykit.core.cpu.CpuSet;
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
    String cg = "sys/fs/cgroup/affinitykit-" + Owner.jvmId();

    try (Isolation iso = Isolation.of(kit.isolate(CpuSet.of(3), isolator))) {
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

  @Test
  @org.junit.jupiter.api.Timeout(30)
  void shouldIsolateAFactorysPoolOnlyWhenAskedAndUndoItWhenItsLastThreadEnds(TestInfo info)
      throws Exception {
    Path dir = dir(info);
    AffinityKit kit = TreeKits.isolating(dir.resolve("root"), 4);
    try (io.github.affinitykit.core.PinnedThreadFactory plain =
        PinnedThreadFactory.builder(kit.group("plain")).build()) {
      assertThat(plain.isolation()).as("off by default").isEmpty();
    }
    io.github.affinitykit.core.PinnedThreadFactory f =
        PinnedThreadFactory.builder(kit.group("iso").isolate(true)).build();
    assertThat(f.isolation()).as("made at the first join").isEmpty();
    java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch finish = new java.util.concurrent.CountDownLatch(1);
    Thread t =
        f.newThread(
            () -> {
              running.countDown();
              try {
                finish.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    Isolation iso = Isolation.of(f.isolation().orElseThrow());
    assertThat(iso.report().status()).as(iso.report().text()).isEqualTo(IsolationStatus.ISOLATED);
    assertThat(iso.cpus()).isEqualTo(kit.pool().cpus());
    t.start();
    running.await();
    f.close();
    assertThat(iso.isActive()).as("a thread still runs there").isTrue();
    finish.countDown();
    t.join();
    assertThat(iso.isActive()).as("closed with the last seat").isFalse();
    assertThat(iso.released().status()).isEqualTo(IsolationStatus.RELEASED);
    assertThat(Journal.list(dir.resolve("root/journal"))).as("journal deleted").isEmpty();
  }

  @Test
  void shouldIsolateWhatAGroupHoldsOnceAllAreSeatedAndNothingForAGroupThatPinsNothing(TestInfo info)
      throws IOException {
    Path dir = dir(info);
    AffinityKit kit = TreeKits.isolating(dir.resolve("root"), 4);
    io.github.affinitykit.core.CpuGroup off =
        kit.group("off").unpinned("test").isolate(true).build();
    off.joinAll(2);
    assertThat(off.isolation()).as("a group that pins nothing isolates nothing").isEmpty();
    io.github.affinitykit.core.CpuGroup g =
        kit.group("g").pool(CpuSet.of(1, 2, 3)).isolate(true).build();
    g.joinAll(2);
    Isolation iso = Isolation.of(g.isolation().orElseThrow());
    assertThat(iso.report().status()).as(iso.report().text()).isEqualTo(IsolationStatus.ISOLATED);
    assertThat(iso.cpus()).as("the CPUs the seats hold, not the pool").isEqualTo(CpuSet.of(1, 2));
    g.join();
    assertThat(g.isolation()).as("made once").containsSame(iso);
    g.close();
    assertThat(iso.isActive()).as("undone when the closed group's last seat is freed").isFalse();
    off.close();
  }
}
