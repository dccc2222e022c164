package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.placement.RunOutPolicy;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.Fixtures;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import net.openhft.affinity.AffinityStrategies;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The factory on the seed machine's topology with a simulated backend and a private lock dir. */
@Timeout(30)
class PinnedThreadFactoryTest {
  private static final HostCpus E5 = HostCpus.probe(Fixtures.root(Fixtures.E5));

  @TempDir Path locks;
  private final RecordingAffinityBackend backend =
      new RecordingAffinityBackend(CpuSet.range(0, 23));
  private final List<Thread> started = new ArrayList<>();
  private final CountDownLatch release = new CountDownLatch(1);
  private final Map<String, CpuSet> masks = new ConcurrentHashMap<>();

  private AffinityKit kit() {
    return AffinityKit.create(E5, backend, CpuReservations.inDirectory(locks));
  }

  /** A task that records its mask, then holds its CPU until the test releases it. */
  private Runnable holder(CountDownLatch running) {
    return () -> {
      masks.put(Thread.currentThread().getName(), backend.getAffinity(0));
      running.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
  }

  private void startAll(ThreadFactory f, int n, CountDownLatch running) {
    for (int i = 0; i < n; i++) {
      Thread t = f.newThread(holder(running));
      started.add(t);
      t.start();
    }
  }

  @AfterEach
  void stopThreads() throws InterruptedException {
    release.countDown();
    for (Thread t : started) {
      t.join(10_000);
    }
  }

  @Test
  void shouldPinSixThreadsOnSixDistinctCoresWithOpenHftStrategies() throws Exception {
    AffinityKit kit = kit();
    PinnedThreadFactory f =
        PinnedThreadFactory.builder(
                kit.group("worker")
                    .pool(CpuSet.parse("1-11,13-23"))
                    .strategies(AffinityStrategies.DIFFERENT_CORE, AffinityStrategies.ANY))
            .build();
    CountDownLatch running = new CountDownLatch(6);

    startAll(f, 6, running);

    assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
    Set<CpuSet> cores = new HashSet<>();
    for (Assignment a : f.assignments()) {
      assertThat(a.status()).isEqualTo(LeaseStatus.PINNED);
      assertThat(masks.get(a.threadName())).isEqualTo(CpuSet.of(a.cpu()));
      assertThat(a.tid()).isPositive();
      cores.add(E5.topology().cpu(a.cpu()).core());
    }
    assertThat(cores).hasSize(6);
    assertThat(f.assignments())
        .extracting(Assignment::threadName)
        .startsWith("worker-0", "worker-1");
    assertThat(kit.reservations().reservedHere().size()).isEqualTo(6);
    assertThat(kit.pinnedThreadIds()).hasSize(6);

    release.countDown();
    for (Thread t : started) {
      t.join(10_000);
    }
    assertThat(f.assignments()).isEmpty(); // ended threads are forgotten
    assertThat(f.held().isEmpty()).isTrue();
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
    assertThat(kit.pinnedThreadIds()).isEmpty();
  }

  @Test
  void shouldRunOutUnpinnedWithoutInheritingThePinnedCreatorsCpu() throws Exception {
    PinnedThreadFactory f =
        PinnedThreadFactory.builder(kit().group("w").pool(CpuSet.of(20))).build();
    CountDownLatch running = new CountDownLatch(2);
    Thread[] child = new Thread[1];
    Thread parent =
        f.newThread(
            () -> {
              child[0] = f.newThread(holder(running)); // created by a thread pinned to 20
              child[0].start();
              holder(running).run();
            });
    started.add(parent);
    parent.start();

    assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
    started.add(child[0]);
    Assignment out = f.assignments().get(1);
    assertThat(out.status()).isEqualTo(LeaseStatus.UNPINNED);
    assertThat(out.reason()).contains("no CPU of pool 20 left for w-1");
    assertThat(masks.get("w-0")).hasToString("20");
    assertThat(masks.get("w-1")).isEqualTo(E5.reachable().minus(E5.isolatedCpus())); // off 19-23
  }

  @Test
  void shouldBindThreadsThatShareACpuToIt() throws Exception {
    // Which CPU a sharing thread gets is CpuGroup's rule (CpuGroupTest); the factory binds it
    // there.
    PinnedThreadFactory f =
        PinnedThreadFactory.builder(
                kit().group("s").pool(CpuSet.of(20, 21)).runOut(RunOutPolicy.SHARE))
            .build();
    CountDownLatch running = new CountDownLatch(4);

    startAll(f, 4, running);

    assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
    Assignment shared = f.assignments().get(3);
    assertThat(shared.status()).isEqualTo(LeaseStatus.SHARED);
    assertThat(masks.get("s-3")).isEqualTo(CpuSet.of(shared.cpu()));
  }

  @Test
  void shouldPinTheCallingThreadAsTheFactorysNextThreadAndShareWithItsThreads() throws Exception {
    AffinityKit kit = kit();
    PinnedThreadFactory f =
        PinnedThreadFactory.builder(kit.group("g").pool(CpuSet.of(20)).runOut(RunOutPolicy.SHARE))
            .build();
    CountDownLatch running = new CountDownLatch(1);
    startAll(f, 1, running);
    assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
    CpuSet before = backend.getAffinity(0);

    CpuLease lease = f.pinCurrentThread();

    assertThat(lease.status()).isEqualTo(LeaseStatus.SHARED);
    assertThat(lease.cpu()).isEqualTo(20);
    assertThat(backend.getAffinity(0)).hasToString("20");
    assertThat(f.assignments().get(1).threadName()).isEqualTo(Thread.currentThread().getName());
    assertThat(f.assignments().get(1).status()).isEqualTo(LeaseStatus.SHARED);
    assertThat(kit.pinnedThreadIds()).hasSize(2);
    release.countDown();
    started.get(0).join(10_000);
    assertThat(kit.reservations().reservedHere()).hasToString("20"); // the caller still uses it
    lease.close();
    assertThat(backend.getAffinity(0)).isEqualTo(before);
    assertThat(f.assignments()).isEmpty();
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
    assertThat(kit.pinnedThreadIds()).isEmpty();
  }

  @Test
  void shouldFreeTheCpuWhenAnAdoptedThreadCouldNotBeBound() {
    AffinityKit kit = kit();
    PinnedThreadFactory f = PinnedThreadFactory.builder(kit.group("a").pool(CpuSet.of(21))).build();
    backend.failNextSetAffinity(22);

    try (CpuLease lease = f.pinCurrentThread()) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.FAILED);
      assertThat(f.assignments().get(0).status()).isEqualTo(LeaseStatus.FAILED);
      assertThat(kit.reservations().reservedHere()).hasToString("21");
    }
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
    assertThat(f.assignments()).isEmpty();
    PinnedThreadFactory strict =
        PinnedThreadFactory.builder(kit.group("b").pool(CpuSet.of(21)).runOut(RunOutPolicy.FAIL))
            .build();
    strict.pinCurrentThread().close();
    try (CpuLease first = strict.pinCurrentThread()) {
      assertThat(first.isBound()).isTrue();
      assertThatThrownBy(strict::pinCurrentThread).hasMessageContaining("run-out policy FAIL");
    }
  }

  @Test
  void shouldThrowFromNewThreadWhenTheRunOutPolicyIsFail() {
    PinnedThreadFactory f =
        PinnedThreadFactory.builder(kit().group("f").pool(CpuSet.of(20)).runOut(RunOutPolicy.FAIL))
            .build();
    f.newThread(() -> {});

    assertThatThrownBy(() -> f.newThread(() -> {}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("f-1")
        .hasMessageContaining("run-out policy FAIL");
    assertThat(f.held()).hasToString("20");
    f.close(); // the thread was never started: its CPU is freed now
    assertThat(f.assignments()).isEmpty();
    assertThat(f.held().isEmpty()).isTrue();
    assertThatThrownBy(() -> f.newThread(() -> {}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void shouldStillRunTheTaskAndSayWhyWhenTheKernelRefuses() throws Exception {
    AffinityKit kit = kit();
    PinnedThreadFactory f = PinnedThreadFactory.builder(kit.group("e").pool(CpuSet.of(20))).build();
    backend.failNextSetAffinity(22);
    CountDownLatch running = new CountDownLatch(1);

    startAll(f, 1, running);

    assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
    Assignment a = f.assignments().get(0);
    assertThat(a.status()).isEqualTo(LeaseStatus.FAILED);
    assertThat(a.reason()).contains("EINVAL");
    release.countDown();
    started.get(0).join(10_000);
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
  }

  @Test
  void shouldReportUnsupportedAndRunTheTaskWhenThePlatformCannotPin() throws Exception {
    AffinityKit kit =
        AffinityKit.create(
            E5,
            AffinityBackend.unsupported("test: no pinning here"),
            CpuReservations.inDirectory(locks));
    PinnedThreadFactory f = PinnedThreadFactory.builder(kit.group("u")).build();
    CountDownLatch ran = new CountDownLatch(1);
    Thread t = f.newThread(ran::countDown);
    assertThat(f.assignments().get(0).status()).isEqualTo(LeaseStatus.UNSUPPORTED);
    assertThat(f.assignments().get(0).reason()).isEqualTo("test: no pinning here");
    started.add(t);
    t.start();

    assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
    try (CpuLease lease = kit.pinCurrentThread()) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.UNSUPPORTED);
      assertThat(lease.isBound()).isFalse();
    }
  }

  @Test
  void shouldKeepTheDelegatesThreadsAndNames() throws Exception {
    ThreadFactory delegate = r -> new Thread(r, "netty-like");
    PinnedThreadFactory f =
        PinnedThreadFactory.builder(kit().group("d").pool(CpuSet.of(20)))
            .delegate(delegate)
            .build();
    CountDownLatch running = new CountDownLatch(1);

    startAll(f, 1, running);

    assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(started.get(0).getName()).isEqualTo("netty-like");
    assertThat(f.assignments().get(0).threadName()).isEqualTo("netty-like");
    assertThat(masks.get("netty-like")).hasToString("20");
  }

  @Test
  void shouldRejectCustomStrategiesAndPoolsOutsideTheProcess() {
    assertThatThrownBy(
            () -> PinnedThreadFactory.builder(kit().group("x").strategies(CustomStrategy.MINE)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "strategy: io.github.affinitykit.core.PinnedThreadFactoryTest$CustomStrategy.MINE"
                + " (expected: a value of net.openhft.affinity.AffinityStrategies; a custom");
    assertThat(kit().group("y").strategies(AffinityStrategies.DIFFERENT_CORE).build().name())
        .isEqualTo("y");
    HostCpus restricted = FakeHost.create(locks.resolve("host"), 4, 1).allowed("0-1").probe();
    AffinityKit small = AffinityKit.create(restricted, backend, CpuReservations.inDirectory(locks));
    assertThatThrownBy(
            () -> PinnedThreadFactory.builder(small.group("x").pool(CpuSet.of(3))).build())
        .hasMessage("x: pool: 3 (expected: CPUs this process may use: 0-1)");
  }

  /** An enum that is an OpenHFT strategy but not one of its values: refused, it reads cpuinfo. */
  private enum CustomStrategy implements net.openhft.affinity.AffinityStrategy {
    MINE;

    @Override
    public boolean matches(int cpuId, int cpuId2) {
      return true;
    }
  }
}
