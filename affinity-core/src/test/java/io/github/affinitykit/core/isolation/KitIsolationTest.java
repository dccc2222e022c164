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

  @Test
  @org.junit.jupiter.api.Timeout(30)
  void shouldIsolateAFactorysPoolOnlyWhenAskedAndUndoItWhenItsLastThreadEnds(TestInfo info)
      throws Exception {
    Path dir = dir(info);
    AffinityKit kit =
        io.github.affinitykit.core.testkit.FixtureKits.isolating(dir.resolve("root"), 4);
    try (io.github.affinitykit.core.PinnedThreadFactory plain =
        kit.threadFactory("plain").build()) {
      assertThat(plain.isolation()).as("off by default").isEmpty();
    }
    io.github.affinitykit.core.PinnedThreadFactory f =
        kit.threadFactory("iso").isolate(true).build();
    Isolation iso = f.isolation().orElseThrow();
    assertThat(iso.report().status()).as(iso.report().text()).isEqualTo(IsolationStatus.ISOLATED);
    assertThat(iso.cpus()).isEqualTo(kit.pool().cpus());
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
  void shouldRefuseToIsolateForAGroupThatCannotOwnTheCpus(TestInfo info) throws IOException {
    Path dir = dir(info);
    AffinityKit kit =
        io.github.affinitykit.core.testkit.FixtureKits.isolating(dir.resolve("root"), 4);
    io.github.affinitykit.core.CpuGroup off = kit.group("off").off("test").build();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> off.isolate(CpuSet.of(1)))
        .hasMessage("off: isolate (expected: an open group that pins)");
    io.github.affinitykit.core.CpuGroup g = kit.group("g").pool(CpuSet.of(1, 2)).build();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> g.isolate(CpuSet.of(3)))
        .hasMessage("g: cpus: \"3\" (expected: CPUs of the group's pool 1-2)");
    try (Isolation iso = g.isolate(CpuSet.of(2))) {
      assertThat(g.isolation()).containsSame(iso);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> g.isolate(CpuSet.of(1)))
          .isInstanceOf(IllegalStateException.class);
    }
    g.close();
  }
}
