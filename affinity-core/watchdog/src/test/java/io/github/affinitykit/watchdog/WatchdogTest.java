package io.github.affinitykit.watchdog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.Assignment;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.Seat;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FakeAudit;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import io.github.affinitykit.watchdog.WatchEvent.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Watchdog}: the scene seen live with {@code runc update --cpuset-cpus 2-3} (threads pinned
 * to 3 and 4, both left allowed on 2-3), a lost lock file, audits that find intruders on a CPU and
 * then exclusive again, on a six-CPU fixture host whose kernel is the recording backend. The live
 * scene runs in the kernel suite's container guest.
 */
@Timeout(30)
class WatchdogTest {
  @TempDir Path root;
  @TempDir Path locks;
  private final RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, 5));
  private final BoundThreads bound = new BoundThreads();
  private AffinityKit kit;

  private AffinityKit kit() {
    HostCpus host = FakeHost.create(root, 6, 1).probe();
    kit = AffinityKit.create(host, backend, CpuReservations.inDirectory(locks));
    return kit;
  }

  private List<CpuLease> pinned(CpuGroup group, int members) throws Exception {
    return bound.pinned(group, members);
  }

  @AfterEach
  void stop() throws InterruptedException {
    bound.end();
  }

  @Test
  void shouldRepinTheThreadWhoseCpuStaysAndReportOnceTheOneWhoseCpuIsGone() throws Exception {
    CpuGroup svc = kit().group("svc").cpus(3, 4).build();
    List<CpuLease> l = pinned(svc, 2);
    List<WatchEvent> told = Collections.synchronizedList(new ArrayList<>());
    Watchdog dog = Watchdog.builder(kit).repin(RepinPolicy.REPIN).listener(told::add).build();
    assertThat(dog.checkNow().events()).isEmpty();

    backend.setAffinity(l.get(0).tid(), CpuSet.range(2, 3)); // runc update --cpuset-cpus 2-3
    backend.setAffinity(l.get(1).tid(), CpuSet.range(2, 3));
    WatchReport r = dog.checkNow();

    assertThat(r.events())
        .extracting(WatchEvent::kind, WatchEvent::cpu, WatchEvent::mask)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(Kind.MOVED, 3, CpuSet.range(2, 3)),
            org.assertj.core.groups.Tuple.tuple(Kind.REPINNED, 3, CpuSet.range(2, 3)),
            org.assertj.core.groups.Tuple.tuple(Kind.MOVED, 4, CpuSet.range(2, 3)),
            org.assertj.core.groups.Tuple.tuple(Kind.NOT_REPINNED, 4, CpuSet.range(2, 3)));
    assertThat(r.events().get(3).detail())
        .isEqualTo("cpu 4 is gone: the kernel allows the thread only on 2-3");
    assertThat(r.events().get(0))
        .hasToString(
            "MOVED svc-0 (tid "
                + l.get(0).tid()
                + ", cpu 3) allowed on 2-3: pinned to cpu 3 but the kernel now allows it on 2-3");
    assertThat(told).containsExactlyElementsOf(r.events());
    assertThat(backend.getAffinity(l.get(0).tid())).isEqualTo(CpuSet.of(3));
    assertThat(backend.getAffinity(l.get(1).tid())).isEqualTo(CpuSet.range(2, 3));
    assertThat(l.get(0).status()).isEqualTo(LeaseStatus.PINNED);
    assertThat(l.get(1).status()).isEqualTo(LeaseStatus.MOVED);
    List<Assignment> report = svc.assignments();
    assertThat(report.get(0).status()).isEqualTo(LeaseStatus.PINNED);
    assertThat(report.get(0).reason())
        .endsWith("(re-pinned after: pinned to cpu 3 but the kernel now allows it on 2-3)");
    assertThat(report.get(1).status()).isEqualTo(LeaseStatus.MOVED);
    assertThat(report.get(1).reason()).contains("cpu 4").contains("2-3");

    assertThat(dog.checkNow().events()).isEmpty(); // told once per move

    backend.setAffinity(l.get(1).tid(), CpuSet.range(2, 5)); // the cpuset grows back
    assertThat(dog.checkNow().events())
        .extracting(WatchEvent::kind, WatchEvent::cpu)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(Kind.REPINNED, 4));
    assertThat(backend.getAffinity(l.get(1).tid())).isEqualTo(CpuSet.of(4));
    assertThat(svc.assignments()).extracting(Assignment::status).containsOnly(LeaseStatus.PINNED);
    assertThat(dog.count(Kind.MOVED)).isEqualTo(2);
    assertThat(dog.count(Kind.REPINNED)).isEqualTo(2);
    assertThat(dog.count(Kind.NOT_REPINNED)).isEqualTo(1);
    assertThat(dog.checks()).isEqualTo(4);
    assertThat(kit.movedTotal()).isEqualTo(2);
  }

  @Test
  void shouldOnlyReportAMoveUnderTheDefaultPolicy() throws Exception {
    CpuGroup svc = kit().group("svc").cpus(3).build();
    CpuLease lease = pinned(svc, 1).get(0);
    Watchdog dog = Watchdog.builder(kit).build();
    backend.setAffinity(lease.tid(), CpuSet.range(0, 5));

    assertThat(dog.checkNow().events()).extracting(WatchEvent::kind).containsExactly(Kind.MOVED);
    assertThat(dog.checkNow().events()).isEmpty();
    assertThat(backend.getAffinity(lease.tid())).isEqualTo(CpuSet.range(0, 5));
    assertThat(svc.assignments().get(0).status()).isEqualTo(LeaseStatus.MOVED);
    assertThat(dog.repinPolicy()).isEqualTo(RepinPolicy.REPORT);

    Files.delete(kit.reservations().lockFile(3)); // and then its lock file goes too
    assertThat(dog.checkNow().events()).extracting(WatchEvent::kind).containsExactly(Kind.LOST);
    assertThat(lease.status()).isEqualTo(LeaseStatus.MOVED); // the move shows first
    assertThat(kit.lostTotal()).isEqualTo(1);
  }

  @Test
  void shouldTellAMoveTheApplicationFoundFirstAndRepinIt() throws Exception {
    CpuGroup svc = kit().group("svc").cpus(2).build();
    CpuLease lease = pinned(svc, 1).get(0);
    Watchdog dog = Watchdog.builder(kit).repin(RepinPolicy.REPIN).build();
    backend.setAffinity(lease.tid(), CpuSet.range(1, 2));
    assertThat(lease.check()).isEqualTo(LeaseStatus.MOVED); // the application's own check

    assertThat(dog.checkNow().events())
        .extracting(WatchEvent::kind)
        .containsExactly(Kind.MOVED, Kind.REPINNED);
    assertThat(dog.checkNow().events()).isEmpty();
    assertThat(kit.movedTotal()).isEqualTo(1); // one move, counted where it was found
  }

  @Test
  void shouldReportALostReservationOnceAndGoOnWhenAListenerThrows() throws Exception {
    CpuGroup svc = kit().group("svc").cpus(1).build();
    CpuLease lease = pinned(svc, 1).get(0);
    List<WatchEvent> second = new ArrayList<>();
    Watchdog dog =
        Watchdog.builder(kit)
            .listener(
                e -> {
                  throw new IllegalStateException("a broken listener");
                })
            .listener(second::add)
            .build();
    Files.delete(kit.reservations().lockFile(1)); // another program's clean-up

    assertThat(dog.checkNow().events()).extracting(WatchEvent::kind).containsExactly(Kind.LOST);
    assertThat(dog.checkNow().events()).isEmpty();
    assertThat(second).extracting(WatchEvent::kind).containsExactly(Kind.LOST);
    assertThat(second.get(0).detail())
        .isEqualTo(
            "the lock files of cpu 1 were deleted or replaced under the lease: another process may"
                + " take it");
    assertThat(dog.listenerFailures()).isEqualTo(1);
    assertThat(dog.count(Kind.LOST)).isEqualTo(1);
    assertThat(lease.status()).isEqualTo(LeaseStatus.LOST);
    assertThat(svc.assignments().get(0).status()).isEqualTo(LeaseStatus.LOST);
  }

  @Test
  void shouldReportACpuFoundSharedThenExclusiveAgainAndKeepTheLastAudit() throws Exception {
    kit();
    List<Kind> verdicts = new ArrayList<>(List.of(Kind.INTRUDED, Kind.EXCLUSIVE));
    List<CpuSet> audited = new ArrayList<>();
    Watchdog dog =
        Watchdog.builder(kit)
            .period(Duration.ofSeconds(1))
            .audit(Duration.ofMillis(10))
            .auditor(
                (host, cpus, window, owners) -> {
                  audited.add(cpus);
                  assertThat(host).isSameAs(kit.host());
                  assertThat(owners).isEqualTo(kit.pinnedThreadIds());
                  Kind v = verdicts.isEmpty() ? Kind.EXCLUSIVE : verdicts.remove(0);
                  String in = v == Kind.INTRUDED ? "bash (pid 300): ran_there" : "";
                  return FakeAudit.of(window, 2, FakeAudit.Verdict.valueOf(v.name()), in);
                })
            .build();
    assertThat(dog.checkNow().audit()).isEmpty(); // nothing pinned, nothing audited
    pinned(kit.group("svc").cpus(2).build(), 1);

    WatchReport shared = dog.checkNow();
    assertThat(shared.events()).extracting(WatchEvent::kind).containsExactly(Kind.INTRUDED);
    assertThat(shared.events().get(0).detail()).isEqualTo("bash (pid 300): ran_there");
    assertThat(shared.events().get(0).member()).isEqualTo("svc-0");
    assertThat(dog.checkNow().events())
        .extracting(WatchEvent::kind, WatchEvent::detail)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(Kind.EXCLUSIVE, "EXCLUSIVE after INTRUDED"));
    assertThat(dog.checkNow().events()).isEmpty();
    assertThat(audited).containsOnly(CpuSet.of(2));
    assertThat(dog.lastAudit().orElseThrow().exclusive()).isEqualTo(CpuSet.of(2));
    assertThat(dog.count(Kind.INTRUDED)).isEqualTo(1);
  }

  @Test
  void shouldCheckPeriodicallyOnItsOwnThreadUntilClosed() throws Exception {
    CpuGroup svc = kit().group("svc").cpus(5).build();
    CpuLease lease = pinned(svc, 1).get(0);
    CountDownLatch repinned = new CountDownLatch(1);
    Watchdog dog =
        Watchdog.builder(kit)
            .period(Duration.ofMillis(20))
            .cpus(CpuSet.of(0))
            .repin(RepinPolicy.REPIN)
            .listener(
                e -> {
                  if (e.kind() == Kind.REPINNED) {
                    repinned.countDown();
                  }
                })
            .start();
    Thread checker = dog.thread();
    try {
      assertThat(dog.isRunning()).isTrue();
      assertThat(checker.getName()).isEqualTo("affinity-watchdog");
      assertThat(checker.isDaemon()).isTrue();
      backend.setAffinity(lease.tid(), CpuSet.range(4, 5));

      assertThat(repinned.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(dog.count(Kind.MOVED)).isEqualTo(1);
      assertThat(backend.getAffinity(lease.tid())).isEqualTo(CpuSet.of(5));
      assertThat(dog.toString()).contains("moved 1, repinned 1").contains("on CPUs 0");
      assertThatThrownBy(dog::start).hasMessage("watchdog: started (expected: built, not started)");
    } finally {
      dog.close();
    }
    assertThat(checker.isAlive()).isFalse(); // close() returned once its thread had ended
    assertThat(dog.isRunning()).isFalse();
  }

  @Test
  void shouldGoOnCheckingWhenACheckOrAListenerFailsAndCloseFromAListener() throws Exception {
    CpuGroup svc = kit().group("svc").cpus(4).build();
    CpuLease lease = pinned(svc, 1).get(0);
    CountDownLatch failedTwice = new CountDownLatch(2);
    CountDownLatch closedFromListener = new CountDownLatch(1);
    Watchdog[] self = new Watchdog[1];
    Watchdog dog =
        Watchdog.builder(kit)
            .period(Duration.ofMillis(10))
            .audit(Duration.ofMillis(1))
            .auditor(
                (host, cpus, window, owners) -> {
                  if (failedTwice.getCount() > 0) {
                    failedTwice.countDown();
                    throw new IllegalStateException("procfs went away");
                  }
                  return FakeAudit.of(window, 4, FakeAudit.Verdict.INTRUDED, "");
                })
            .listener(
                e -> {
                  throw new AssertionError("a listener's broken assertion");
                })
            .listener(
                e -> {
                  self[0].close(); // from the watchdog's own thread: returns at once
                  closedFromListener.countDown();
                })
            .build();
    self[0] = dog;
    dog.start();
    Thread checker = dog.thread();
    try {
      assertThat(failedTwice.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(closedFromListener.await(10, TimeUnit.SECONDS)).isTrue();
      checker.join(10_000);

      assertThat(checker.isAlive()).isFalse();
      assertThat(dog.checkFailures()).isEqualTo(2);
      assertThat(dog.listenerFailures()).isEqualTo(1);
      assertThat(dog.count(Kind.INTRUDED)).isEqualTo(1);
      assertThat(lease.isBound()).isTrue();
    } finally {
      dog.close();
    }
  }

  @Test
  void shouldLeaveALeaseWhoseThreadEndedWithoutClosingIt() throws Exception {
    CpuGroup svc = kit().group("svc").cpus(3).build();
    Seat seat = svc.joinAll(1).get(0);
    CpuLease[] leaked = new CpuLease[1];
    Thread t = new Thread(() -> leaked[0] = seat.bindOnce(), "leaks-its-lease");
    t.start();
    t.join(10_000);
    Watchdog dog = Watchdog.builder(kit).repin(RepinPolicy.REPIN).build();
    try {
      backend.setAffinity(leaked[0].tid(), CpuSet.range(0, 5)); // its id, another thread's now

      assertThat(dog.checkNow().events()).isEmpty();
      assertThat(backend.getAffinity(leaked[0].tid())).isEqualTo(CpuSet.range(0, 5));
      assertThat(leaked[0].status()).isEqualTo(LeaseStatus.PINNED);
    } finally {
      leaked[0].close();
    }
  }

  @Test
  void shouldRefuseAPeriodAWindowOrCpusThatCannotWork() {
    WatchdogBuilder b = Watchdog.builder(kit());

    assertThatThrownBy(() -> b.period(Duration.ZERO))
        .hasMessage("period: PT0S (expected: >= 1 ms)");
    assertThatThrownBy(() -> b.audit(Duration.ofMillis(-1)))
        .hasMessage("window: PT-0.001S (expected: > 0)");
    assertThatThrownBy(() -> b.cpus(CpuSet.of(7)))
        .hasMessage("cpus: 7 (expected: CPUs this process may use, within 0-5)");
    assertThatThrownBy(() -> b.period(Duration.ofMillis(50)).audit(Duration.ofMillis(50)).build())
        .hasMessage("audit: PT0.05S (expected: a window shorter than the period PT0.05S)");
    assertThat(kit.pool().cpus()).isEqualTo(CpuSet.range(1, 5)); // the fixture's pool spares cpu 0
    assertThat(Watchdog.builder(kit).build().cpus()).isEqualTo(CpuSet.of(0)); // housekeeping
  }
}
