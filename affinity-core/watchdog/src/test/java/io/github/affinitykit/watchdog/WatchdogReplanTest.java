package io.github.affinitykit.watchdog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import io.github.affinitykit.watchdog.WatchEvent.Kind;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RepinPolicy#REPLAN} on the fixture of {@code runc update --cpuset-cpus 2-3} (threads
 * pinned to 3 and 4 of a six-CPU host, both left allowed on 2-3, CPU 2 free): the thread whose CPU
 * stayed is re-pinned as under REPIN, the other re-planned onto CPU 2 through the group's planner
 * and reservations, once; where no CPU of the new set is free it is NOT_REPINNED with why, and
 * re-planned once one is; a whole-core group takes a whole core again. {@code WatchdogTest} keeps
 * REPIN's.
 */
@Timeout(30)
class WatchdogReplanTest {
  private static final String AFTER = "pinned to cpu 4 but the kernel now allows it on 2-3";

  @TempDir Path root;
  @TempDir Path locks;
  private RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, 5));
  private final BoundThreads bound = new BoundThreads();
  private AffinityKit kit;

  private AffinityKit kit(int cpus, int smt) {
    backend = new RecordingAffinityBackend(CpuSet.range(0, cpus - 1));
    kit =
        AffinityKit.create(
            FakeHost.create(root, cpus, smt).probe(), backend, CpuReservations.inDirectory(locks));
    return kit;
  }

  private List<CpuLease> pinned(CpuGroup group, int members) throws Exception {
    return bound.pinned(group, members);
  }

  @AfterEach
  void stop() throws InterruptedException {
    bound.end();
    assertThat(kit.reservations().reservedHere().isEmpty()).as("every CPU freed").isTrue();
  }

  private static Watchdog replanning(AffinityKit kit) {
    return Watchdog.builder(kit).repin(RepinPolicy.REPLAN).build();
  }

  @Test
  void shouldRepinTheThreadWhoseCpuStayedAndReplanTheOtherOntoTheFreeCpuOnce() throws Exception {
    CpuGroup svc = kit(6, 1).group("svc").cpus(3, 4).build();
    List<CpuLease> l = pinned(svc, 2);
    Watchdog dog = replanning(kit);

    backend.setAffinity(l.get(0).tid(), CpuSet.range(2, 3)); // runc update --cpuset-cpus 2-3
    backend.setAffinity(l.get(1).tid(), CpuSet.range(2, 3));
    WatchReport r = dog.checkNow();

    assertThat(r.events())
        .extracting(WatchEvent::kind, WatchEvent::cpu, WatchEvent::mask)
        .containsExactly(
            tuple(Kind.MOVED, 3, CpuSet.range(2, 3)),
            tuple(Kind.REPINNED, 3, CpuSet.range(2, 3)),
            tuple(Kind.MOVED, 4, CpuSet.range(2, 3)),
            tuple(Kind.REPLANNED, 2, CpuSet.range(2, 3)));
    assertThat(r.events().get(3).detail())
        .isEqualTo(
            "re-planned from cpu 4 to cpu 2: cpu 4 is gone: the kernel allows the thread only on"
                + " 2-3");
    assertThat(backend.getAffinity(l.get(0).tid())).isEqualTo(CpuSet.of(3));
    assertThat(backend.getAffinity(l.get(1).tid())).isEqualTo(CpuSet.of(2));
    CpuLease moved = l.get(1);
    assertThat(moved.cpu()).isEqualTo(2);
    assertThat(moved.cpus()).isEqualTo(CpuSet.of(2));
    assertThat(moved.status()).isEqualTo(LeaseStatus.PINNED);
    assertThat(moved.isIntact()).isTrue();
    assertThat(moved.reason())
        .isEqualTo("explicit cpu 4 (re-planned from cpu 4 to cpu 2, ANY, after: " + AFTER + ")");
    assertThat(svc.held()).as("cpu 4 freed, 2 reserved").isEqualTo(CpuSet.range(2, 3));
    assertThat(kit.reservations().reservedHere()).isEqualTo(CpuSet.range(2, 3));
    assertThat(svc.seats().get(1).cpu()).isEqualTo(2);
    assertThat(svc.assignments().get(1).cpu()).isEqualTo(2);

    assertThat(dog.checkNow().events()).as("told once").isEmpty();
    assertThat(dog.count(Kind.REPLANNED)).isOne();
    assertThat(dog.count(Kind.NOT_REPINNED)).isZero();

    backend.setAffinity(moved.tid(), CpuSet.range(0, 5)); // a later move of the re-planned thread
    assertThat(dog.checkNow().events())
        .extracting(WatchEvent::kind, WatchEvent::cpu)
        .containsExactly(tuple(Kind.MOVED, 2), tuple(Kind.REPINNED, 2));
    assertThat(backend.getAffinity(moved.tid())).isEqualTo(CpuSet.of(2));
  }

  @Test
  void shouldTellWhyWhenNoCpuOfTheNewSetIsFreeAndReplanOnceOneIs() throws Exception {
    kit(6, 1);
    CpuGroup other = kit.group("other").cpus(2).build();
    CpuLease onTwo = pinned(other, 1).get(0);
    CpuGroup svc = kit.group("svc").cpus(3, 4).build();
    List<CpuLease> l = pinned(svc, 2);
    Watchdog dog = replanning(kit);
    backend.setAffinity(l.get(1).tid(), CpuSet.range(2, 3));

    List<WatchEvent> first = dog.checkNow().events();
    assertThat(first).extracting(WatchEvent::kind).containsExactly(Kind.MOVED, Kind.NOT_REPINNED);
    assertThat(first.get(1).detail())
        .startsWith(
            "cpu 4 is gone: the kernel allows the thread only on 2-3; no CPU of pool 1-5 within 2-3:")
        .contains("cpu 2: already reserved by this JVM");
    assertThat(backend.getAffinity(l.get(1).tid())).isEqualTo(CpuSet.range(2, 3));
    assertThat(l.get(1).cpu()).isEqualTo(4);
    assertThat(dog.checkNow().events()).as("told once a move").isEmpty();

    onTwo.close(); // its thread ended: CPU 2 is free again
    other.close();
    assertThat(dog.checkNow().events())
        .extracting(WatchEvent::kind, WatchEvent::cpu)
        .containsExactly(tuple(Kind.REPLANNED, 2));
    assertThat(backend.getAffinity(l.get(1).tid())).isEqualTo(CpuSet.of(2));
  }

  @Test
  void shouldReplanAWholeCoreGroupOntoAWholeCoreOfTheNewSet() throws Exception {
    kit(8, 2); // cores {0,4} {1,5} {2,6} {3,7}
    CpuGroup w = kit.group("w").pool(CpuSet.range(0, 7)).wholeCores(true).build();
    List<CpuLease> l = pinned(w, 2);
    assertThat(l).extracting(CpuLease::cpu).containsExactly(0, 1);
    Watchdog dog = replanning(kit);
    backend.setAffinity(l.get(1).tid(), CpuSet.parse("0,2-4,6")); // cpu 1 and its core gone

    List<WatchEvent> events = dog.checkNow().events();

    assertThat(events).extracting(WatchEvent::kind).containsExactly(Kind.MOVED, Kind.REPLANNED);
    assertThat(l.get(1).cpu()).isEqualTo(2);
    assertThat(l.get(1).cpus()).as("the whole core").isEqualTo(CpuSet.of(2, 6));
    assertThat(kit.reservations().reservedHere()).isEqualTo(CpuSet.parse("0,2,4,6"));
    assertThat(l.get(1).reason())
        .contains("re-planned from cpu 1 to cpu 2")
        .contains("whole core 2,6");
  }

  @Test
  void shouldLeaveASharedCpuToItsSeatsAndSayWhy() throws Exception {
    CpuGroup svc = kit(6, 1).group("svc").cpus(4, 4).build();
    List<CpuLease> l = pinned(svc, 2);
    Watchdog dog = replanning(kit);
    backend.setAffinity(l.get(0).tid(), CpuSet.range(2, 3));

    List<WatchEvent> events = dog.checkNow().events();

    assertThat(events).extracting(WatchEvent::kind).containsExactly(Kind.MOVED, Kind.NOT_REPINNED);
    assertThat(events.get(1).detail())
        .endsWith("cpu 4 is shared with another seat: not re-planned");
    assertThat(l.get(0).cpu()).isEqualTo(4);
  }
}
