package io.github.affinitykit.micrometer;

import static io.github.affinitykit.micrometer.TaskFiles.PID;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.audit.CpuAudit;
import io.github.affinitykit.audit.TaskReader;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.testkit.FixtureKits;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.ref.Reference;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AffinityMeterBinder} in a {@link SimpleMeterRegistry}: a kit over a fixture host and the
 * recording backend, its threads' counters from a fixture {@code /proc}.
 */
@Timeout(30)
class AffinityMeterBinderTest {
  @TempDir Path proc;
  private final MeterRegistry registry = new SimpleMeterRegistry();
  private final AtomicReference<Optional<CpuAudit>> audit = new AtomicReference<>(Optional.empty());
  private AffinityKit kit;

  private AffinityMeterBinder binder() {
    kit = FixtureKits.isolating(proc, 4); // CPUs 0-3, the pool 1-3, a recording backend
    return AffinityMeterBinder.builder(kit)
        .tasks(TaskReader.at(proc), PID)
        .audits(audit::get)
        .build();
  }

  /** Every meter as {@code name{tag=value,...}}, sorted. */
  private List<String> ids() {
    return registry.getMeters().stream()
        .map(Meter::getId)
        .map(
            id ->
                id.getName()
                    + id.getTags().stream()
                        .map(t -> t.getKey() + "=" + t.getValue())
                        .collect(Collectors.joining(",", "{", "}")))
        .sorted()
        .toList();
  }

  private double value(String name, String... tags) {
    Meter m = registry.get(name).tags(tags).meter();
    return m.measure().iterator().next().getValue();
  }

  private static final List<String> KIT_METERS =
      List.of(
          "affinity.leases.lost{}",
          "affinity.leases.moved{}",
          "affinity.threads{status=lost}",
          "affinity.threads{status=moved}",
          "affinity.threads{status=pinned}",
          "affinity.threads{status=shared}");

  @Test
  void shouldRegisterTheKitsMetersAndEachPinnedThreadsWithExactNamesAndTags() throws Exception {
    AffinityMeterBinder binder = binder();
    try (PinnedThread io = new PinnedThread(kit, "io", "io-loop")) {
      CpuLease lease = io.lease();
      int tid = lease.tid();
      new TaskFiles(proc).task(tid, 250, 30, 7, 3);

      binder.bindTo(registry);

      String t = "{cpu=" + lease.cpu() + ",group=io,";
      assertThat(ids())
          .containsExactly(
              "affinity.leases.lost{}",
              "affinity.leases.moved{}",
              "affinity.thread.context.switches"
                  + t
                  + "kind=involuntary,thread=io-loop,tid="
                  + tid
                  + "}",
              "affinity.thread.context.switches"
                  + t
                  + "kind=voluntary,thread=io-loop,tid="
                  + tid
                  + "}",
              "affinity.thread.cpu.time" + t + "thread=io-loop,tid=" + tid + "}",
              "affinity.threads{status=lost}",
              "affinity.threads{status=moved}",
              "affinity.threads{status=pinned}",
              "affinity.threads{status=shared}");
      FunctionCounter cpuTime = registry.get("affinity.thread.cpu.time").functionCounter();
      assertThat(cpuTime.count()).isEqualTo(2.8);
      assertThat(cpuTime.getId().getBaseUnit()).isEqualTo("seconds");
      assertThat(value("affinity.thread.context.switches", "kind", "voluntary")).isEqualTo(7);
      assertThat(value("affinity.thread.context.switches", "kind", "involuntary")).isEqualTo(3);
      assertThat(value("affinity.threads", "status", "pinned")).isEqualTo(1);
      assertThat(value("affinity.threads", "status", "moved")).isZero();
      assertThat(registry.get("affinity.leases.moved").functionCounter().count()).isZero();
    }
  }

  @Test
  void shouldKeepCountingAThreadsCpuTimeWhenACollectionRanAfterTheBind() throws Exception {
    AffinityMeterBinder binder = binder();
    try (PinnedThread io = new PinnedThread(kit, "io", "io-loop")) {
      int tid = io.lease().tid();
      TaskFiles files = new TaskFiles(proc).task(tid, 250, 30, 7, 3);
      binder.bindTo(registry);
      FunctionCounter cpuTime = registry.get("affinity.thread.cpu.time").functionCounter();
      assertThat(cpuTime.count()).isEqualTo(2.8);

      collectGarbage(); // the function counters hold their probe weakly: the binder must hold it
      files.task(tid, 300, 30, 9, 3);
      Thread.sleep(TimeUnit.NANOSECONDS.toMillis(ThreadProbe.MAX_AGE_NS) + 20);

      assertThat(cpuTime.count()).isEqualTo(3.3);
      assertThat(value("affinity.thread.context.switches", "kind", "voluntary")).isEqualTo(9);
    } finally {
      Reference.reachabilityFence(binder);
    }
  }

  /** Runs collections until a weakly held object is gone: a probe held only weakly is too. */
  private static void collectGarbage() throws InterruptedException {
    WeakReference<Object> sentinel = new WeakReference<>(new Object());
    for (int i = 0; i < 100 && sentinel.get() != null; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertThat(sentinel.get()).as("a collection cleared the sentinel").isNull();
  }

  @Test
  void shouldMoveAThreadBetweenStatusesAndCountMovedAndLost() throws Exception {
    AffinityMeterBinder binder = binder();
    binder.bindTo(registry);
    try (PinnedThread io = new PinnedThread(kit, "io", "io-loop");
        CpuLease mine = kit.pinCurrentThread(2)) {
      CpuLease theirs = io.lease();
      assertThat(value("affinity.threads", "status", "pinned")).isEqualTo(2);

      kit.backend().setAffinity(mine.tid(), CpuSet.range(0, 3)); // what offlining cpu 2 does
      mine.check();
      Files.delete(kit.reservations().lockFile(theirs.cpu()));
      theirs.verify();

      assertThat(value("affinity.threads", "status", "pinned")).isZero();
      assertThat(value("affinity.threads", "status", "moved")).isEqualTo(1);
      assertThat(value("affinity.threads", "status", "lost")).isEqualTo(1);
      assertThat(registry.get("affinity.leases.moved").functionCounter().count()).isEqualTo(1);
      assertThat(registry.get("affinity.leases.lost").functionCounter().count()).isEqualTo(1);
    }
  }

  @Test
  void shouldRemoveAClosedLeasesMetersAndAddANewOnesAtTheNextRefresh() throws Exception {
    AffinityMeterBinder binder = binder();
    new TaskFiles(proc).task(1000, 1, 0, 1, 0).task(1001, 2, 0, 1, 0).task(1002, 3, 0, 1, 0);
    binder.bindTo(registry);
    PinnedThread first = new PinnedThread(kit, "a", "a-loop");
    first.lease();
    binder.refresh();
    assertThat(registry.find("affinity.thread.cpu.time").tag("thread", "a-loop").meter())
        .isNotNull();

    first.close();
    try (PinnedThread second = new PinnedThread(kit, "b", "b-loop")) {
      second.lease();
      assertThat(value("affinity.threads", "status", "pinned")).isEqualTo(1); // gauges: at once

      binder.refresh();

      assertThat(registry.find("affinity.thread.cpu.time").tag("thread", "a-loop").meters())
          .isEmpty();
      assertThat(registry.find("affinity.thread.context.switches").tag("thread", "a-loop").meters())
          .isEmpty();
      assertThat(registry.find("affinity.thread.cpu.time").tag("thread", "b-loop").meters())
          .hasSize(1);
    }
    binder.refresh();
    assertThat(ids()).isEqualTo(KIT_METERS);
  }

  @Test
  void shouldRegisterNoThreadCountersWhenTheThreadsTaskFilesCannotBeRead() {
    AffinityMeterBinder binder = binder();
    try (CpuLease lease = kit.pinCurrentThread(1)) {
      binder.bindTo(registry);

      assertThat(TaskReader.at(proc).read(PID, lease.tid())).isEmpty();
      assertThat(ids()).isEqualTo(KIT_METERS);
      assertThat(value("affinity.threads", "status", "pinned")).isEqualTo(1);
    }
  }

  @Test
  void shouldExposeTheLatestAuditsVerdictsAndDropTheCpusItNoLongerCovers() throws Exception {
    AffinityMeterBinder binder = binder();
    binder.bindTo(registry);
    new TaskFiles(proc).task(1000, 10, 0, 1, 0).process(77, "bash", 0, "0-1");
    HostCpus host = HostCpus.probe(proc);
    Set<Integer> owner = Set.of(1000);

    audit.set(Optional.of(CpuAudit.run(proc, host, CpuSet.of(1, 2), Duration.ofMillis(30), owner)));
    binder.refresh();

    assertThat(ids())
        .containsAll(KIT_METERS)
        .contains(
            "affinity.cpu.intruders{cpu=1}",
            "affinity.cpu.intruders{cpu=2}",
            "affinity.cpu.verdict{cpu=1,verdict=exclusive}",
            "affinity.cpu.verdict{cpu=1,verdict=intruded}",
            "affinity.cpu.verdict{cpu=1,verdict=unknown}",
            "affinity.cpu.verdict{cpu=2,verdict=exclusive}",
            "affinity.cpu.verdict{cpu=2,verdict=intruded}",
            "affinity.cpu.verdict{cpu=2,verdict=unknown}")
        .hasSize(KIT_METERS.size() + 8);
    assertThat(value("affinity.cpu.verdict", "cpu", "1", "verdict", "intruded")).isEqualTo(1);
    assertThat(value("affinity.cpu.verdict", "cpu", "1", "verdict", "exclusive")).isZero();
    assertThat(value("affinity.cpu.intruders", "cpu", "1")).isEqualTo(1); // bash may run there
    assertThat(value("affinity.cpu.verdict", "cpu", "2", "verdict", "exclusive")).isEqualTo(1);
    assertThat(value("affinity.cpu.verdict", "cpu", "2", "verdict", "unknown")).isZero();
    assertThat(value("affinity.cpu.intruders", "cpu", "2")).isZero();

    new TaskFiles(proc).process(77, "bash", 0, "0-2"); // now allowed on cpu 2 as well
    audit.set(Optional.of(CpuAudit.run(proc, host, CpuSet.of(2), Duration.ofMillis(30), owner)));
    binder.refresh();

    assertThat(registry.find("affinity.cpu.verdict").tag("cpu", "1").meters()).isEmpty();
    assertThat(registry.find("affinity.cpu.intruders").tag("cpu", "1").meters()).isEmpty();
    assertThat(value("affinity.cpu.verdict", "cpu", "2", "verdict", "intruded")).isEqualTo(1);
    assertThat(value("affinity.cpu.verdict", "cpu", "2", "verdict", "exclusive")).isZero();

    audit.set(Optional.empty());
    binder.refresh();
    assertThat(ids()).isEqualTo(KIT_METERS);
  }

  @Test
  void shouldRefuseAPidBelowOne() {
    binder();
    TaskReader reader = TaskReader.at(proc);

    assertThatThrownBy(() -> AffinityMeterBinder.builder(kit).tasks(reader, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pid: 0 (expected: >= 1)");
  }
}
