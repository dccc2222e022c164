package io.github.affinitykit.watchdog;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.Seat;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.KitEvents;
import io.github.affinitykit.core.testkit.Racers;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import io.github.affinitykit.watchdog.WatchEvent.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seat's one state under contention with watchdogs (core's {@code PinStateStressTest} has the
 * rest): a lease's closes, a watchdog's move and loss reports (re-pinning or only reporting), the
 * application's own checks and a second thread binding the same seat (a Netty loop resumed) start
 * together at a barrier, many times over, on a fixture kit whose kernel is the recording backend.
 * Every transition must be told exactly once: the counters, each watchdog's events, and the Flight
 * Recorder events read back per thread. The same for a re-plan ({@link RepinPolicy#REPLAN}): two
 * re-planning watchdogs race each other (exactly one re-plan), and with two closes and a second
 * bind, on a lease whose CPU left its mask; at most one re-plan is told per lease, and no
 * reservation or narrowed mask is left behind.
 */
@Timeout(120)
class WatchdogStressTest {
  private static final int ITERATIONS = 300;
  private static final int CPU = 2;

  @TempDir Path root;
  @TempDir Path locks;
  private final RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, 5));

  private AffinityKit kit() {
    return AffinityKit.create(
        FakeHost.create(root, 6, 1).probe(), backend, CpuReservations.inDirectory(locks));
  }

  @Test
  void shouldTellEachTransitionOnceWhenClosesChecksRepinsAndABindRace() throws Exception {
    AffinityKit kit = kit();
    Map<Integer, AtomicInteger> lostByTid = new ConcurrentHashMap<>();
    Consumer<WatchEvent> count =
        e -> {
          if (e.kind() == Kind.LOST) {
            lostByTid.computeIfAbsent(e.tid(), k -> new AtomicInteger()).incrementAndGet();
          }
        };
    Watchdog repin = Watchdog.builder(kit).repin(RepinPolicy.REPIN).listener(count).build();
    Watchdog report = Watchdog.builder(kit).listener(count).build();
    Path file = root.resolve("stress.jfr");
    List<RecordedEvent> events;
    int restoredWrong = 0;
    int movedOnTheOtherLease = 0;
    try (Recording r = new Recording()) {
      for (String name :
          List.of("ThreadPinned", "ThreadReleased", "LeaseMoved", "LeaseLost", "LeaseRepinned")) {
        r.enable(KitEvents.PREFIX + name);
      }
      r.start();
      for (int i = 0; i < ITERATIONS; i++) {
        long moved = kit.movedTotal();
        long repinMoved = repin.count(Kind.MOVED);
        long reportMoved = report.count(Kind.MOVED);
        long repinned = repin.count(Kind.REPINNED);
        CountDownLatch end = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        CpuGroup group = kit.group("s" + i).cpus(CPU).build();
        Seat seat = group.joinAll(1).get(0);
        CpuLease first = Racers.bound(seat::bind, end, threads);
        backend.setAffinity(
            first.tid(), CpuSet.range(CPU, CPU + 1)); // the kernel now allows more than its CPU
        Files.delete(kit.reservations().lockFile(CPU)); // another program's clean-up
        CyclicBarrier gate = new CyclicBarrier(6);
        LinkedBlockingQueue<CpuLease> second = new LinkedBlockingQueue<>();
        // Every other iteration the closes wait until a watchdog's check has ended (the checks
        // still race each other, the bind and the application's own check): started together
        // with the checks, the closes won all 300 iterations once in CI, and no move was found.
        CountDownLatch checked = new CountDownLatch(i % 2);
        Runnable close =
            () -> {
              awaitQuietly(checked);
              first.close();
            };
        List<Thread> racers =
            List.of(
                Racers.gated(gate, close),
                Racers.gated(gate, close),
                Racers.gated(
                    gate,
                    () -> {
                      try {
                        repin.checkNow();
                      } finally {
                        checked.countDown();
                      }
                    }),
                Racers.gated(
                    gate,
                    () -> {
                      try {
                        report.checkNow();
                      } finally {
                        checked.countDown();
                      }
                    }),
                Racers.gated(
                    gate,
                    () -> {
                      first.check();
                      first.verify();
                    }),
                Racers.gated(gate, () -> second.add(seat.bind())));
        for (Thread t : racers) {
          t.join(10_000);
          assertThat(t.isAlive()).as("%s still racing after 10 s", t.getName()).isFalse();
        }
        CpuLease other = second.poll(10, TimeUnit.SECONDS);

        assertThat(first.status()).isEqualTo(LeaseStatus.RELEASED);
        if (!backend.maskOf(first.tid()).equals(first.previousMask())) {
          restoredWrong++;
        }
        if (other.status() == LeaseStatus.MOVED) {
          movedOnTheOtherLease++;
        }
        assertThat(other.status()).isIn(LeaseStatus.PINNED, LeaseStatus.LOST);
        assertThat(seat.isBound()).isTrue();
        assertThat(kit.movedTotal() - moved)
            .as("moves told, iteration %d", i)
            .isLessThanOrEqualTo(1);
        assertThat(repin.count(Kind.MOVED) - repinMoved).isLessThanOrEqualTo(1);
        assertThat(report.count(Kind.MOVED) - reportMoved).isLessThanOrEqualTo(1);
        assertThat(repin.count(Kind.REPINNED) - repinned).isLessThanOrEqualTo(1);
        if (repin.count(Kind.MOVED) > repinMoved || report.count(Kind.MOVED) > reportMoved) {
          assertThat(kit.movedTotal() - moved).as("a watchdog told a move never found").isOne();
        }
        other.close();
        assertThat(seat.isBound()).isFalse();
        group.close();
        assertThat(seat.status()).isEqualTo(LeaseStatus.RELEASED);
        end.countDown();
        for (Thread t : threads) {
          t.join(10_000);
        }
      }
      events = KitEvents.stopAndRead(r, file);
    }

    assertThat(restoredWrong).as("leases left on their CPU by a re-pin racing the close").isZero();
    assertThat(movedOnTheOtherLease).isZero();
    assertThat(lostByTid).as("a watchdog told a loss").isNotEmpty();
    assertThat(lostByTid.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
    Map<String, Map<Integer, Long>> byTid =
        events.stream()
            .collect(
                Collectors.groupingBy(
                    e -> e.getEventType().getName().substring(KitEvents.PREFIX.length()),
                    Collectors.groupingBy(e -> e.getInt("tid"), Collectors.counting())));
    assertThat(byTid.get("ThreadPinned"))
        .hasSize(2 * ITERATIONS)
        .containsOnlyKeys(byTid.get("ThreadReleased").keySet());
    assertThat(byTid.get("ThreadReleased").values()).containsOnly(1L); // each close told once
    // each move and loss told once; a run whose interleavings moved no lease has none to tell
    // (containsOnly failed on that empty list in CI): the totals below still have to agree
    assertThat(byTid.getOrDefault("LeaseMoved", Map.of()).values()).allMatch(n -> n == 1L);
    assertThat(byTid.getOrDefault("LeaseLost", Map.of()).values()).allMatch(n -> n == 1L);
    assertThat(sum(byTid, "LeaseMoved")).isEqualTo(kit.movedTotal());
    assertThat(sum(byTid, "LeaseLost")).isEqualTo(kit.lostTotal());
    long repinnedEvents =
        events.stream()
            .filter(e -> e.getEventType().getName().endsWith("LeaseRepinned"))
            .filter(e -> e.getBoolean("repinned"))
            .count();
    assertThat(repinnedEvents).isEqualTo(repin.count(Kind.REPINNED));
    assertThat(kit.movedTotal()).as("the race found moves").isPositive();
  }

  @Test
  void shouldTellEachReplanOnceWhenClosesReplanningWatchdogsAndABindRace() throws Exception {
    AffinityKit kit = kit();
    Map<Integer, AtomicInteger> replannedByTid = new ConcurrentHashMap<>();
    Consumer<WatchEvent> count =
        e -> {
          if (e.kind() == Kind.REPLANNED) {
            replannedByTid.computeIfAbsent(e.tid(), k -> new AtomicInteger()).incrementAndGet();
          }
        };
    Watchdog one = Watchdog.builder(kit).repin(RepinPolicy.REPLAN).listener(count).build();
    Watchdog two = Watchdog.builder(kit).repin(RepinPolicy.REPLAN).listener(count).build();
    Path file = root.resolve("replan.jfr");
    List<RecordedEvent> events;
    int restoredWrong = 0;
    int leftOnAFreedCpu = 0;
    try (Recording r = new Recording()) {
      r.enable(KitEvents.PREFIX + "LeaseRepinned");
      r.start();
      for (int i = 0; i < ITERATIONS; i++) {
        long before = one.count(Kind.REPLANNED) + two.count(Kind.REPLANNED);
        CountDownLatch end = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        CpuGroup group = kit.group("r" + i).cpus(CPU).build();
        Seat seat = group.joinAll(1).get(0);
        CpuLease first = Racers.bound(seat::bind, end, threads);
        backend.setAffinity(first.tid(), CpuSet.range(CPU + 1, CPU + 2)); // its CPU is gone
        // three races in turn: everything; the two watchdogs alone (exactly one re-plan); the
        // watchdogs and the closes; what is not raced runs after
        int race = i % 3;
        LinkedBlockingQueue<CpuLease> second = new LinkedBlockingQueue<>();
        List<Runnable> actions = new ArrayList<>(List.of(one::checkNow, two::checkNow));
        if (race != 1) {
          actions.addAll(List.of(first::close, first::close));
        }
        if (race == 0) {
          actions.add(() -> second.add(seat.bind()));
        }
        CyclicBarrier gate = new CyclicBarrier(actions.size());
        List<Thread> racers = actions.stream().map(a -> Racers.gated(gate, a)).toList();
        for (Thread t : racers) {
          t.join(10_000);
          assertThat(t.isAlive()).as("%s still racing after 10 s", t.getName()).isFalse();
        }
        if (race != 0) {
          second.add(seat.bind());
        }
        first.close();
        CpuLease other = second.poll(10, TimeUnit.SECONDS);

        long replanned = one.count(Kind.REPLANNED) + two.count(Kind.REPLANNED) - before;
        assertThat(replanned).as("re-plans told, iteration %d", i).isLessThanOrEqualTo(1);
        if (race == 1) {
          assertThat(replanned).as("two watchdogs, one re-plan, iteration %d", i).isOne();
        }
        assertThat(first.status()).isEqualTo(LeaseStatus.RELEASED);
        if (!backend.maskOf(first.tid()).equals(first.previousMask())) {
          restoredWrong++;
        }
        assertThat(other.status()).isEqualTo(LeaseStatus.PINNED);
        assertThat(other.cpu()).as("the seat's CPU").isEqualTo(seat.cpu());
        assertThat(seat.cpu()).isEqualTo(replanned == 1 ? CPU + 1 : CPU);
        if (!group.held().equals(CpuSet.of(seat.cpu()))
            || !backend.maskOf(other.tid()).equals(CpuSet.of(other.cpu()))) {
          leftOnAFreedCpu++;
        }
        other.close();
        group.close();
        assertThat(kit.reservations().reservedHere().isEmpty())
            .as("no reservation left, iteration %d", i)
            .isTrue();
        end.countDown();
        for (Thread t : threads) {
          t.join(10_000);
        }
      }
      events = KitEvents.stopAndRead(r, file);
    }

    assertThat(restoredWrong).as("leases left on a CPU by a re-plan racing the close").isZero();
    assertThat(leftOnAFreedCpu).isZero();
    assertThat(replannedByTid).as("the race re-planned").isNotEmpty();
    assertThat(replannedByTid.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
    assertThat(
            events.stream()
                .filter(e -> e.getEventType().getName().endsWith("LeaseRepinned"))
                .filter(e -> e.getBoolean("repinned"))
                .count())
        .as("each re-plan one Flight Recorder event")
        .isEqualTo(one.count(Kind.REPLANNED) + two.count(Kind.REPLANNED));
    assertThat(one.count(Kind.REPINNED) + two.count(Kind.REPINNED)).isZero();
  }

  private static long sum(Map<String, Map<Integer, Long>> byTid, String event) {
    return byTid.getOrDefault(event, Map.of()).values().stream().mapToLong(Long::longValue).sum();
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
