package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.placement.RunOutPolicy;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.Fixtures;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pinned pool that keeps replacing its threads: 20,000 threads, eight at a time on four CPUs
 * (run-out SHARE), each ending and replaced by a new one. The group's bookkeeping, the lock files
 * open and the CPUs held must not grow with the number of threads, and every CPU is free after
 * {@code close()}.
 */
@Timeout(300)
class CpuGroupLifecycleTest {
  private static final HostCpus E5 = HostCpus.probe(Fixtures.root(Fixtures.E5));
  private static final int THREADS = 20_000;
  private static final int AT_ONCE = 8;
  private static final CpuSet POOL = CpuSet.of(2, 3, 4, 5);

  @TempDir Path locks;

  @Test
  void shouldStayBoundedWhileReplacingTwentyThousandThreads() throws Exception {
    AffinityKit kit =
        AffinityKit.create(
            E5,
            new RecordingAffinityBackend(CpuSet.range(0, 23)),
            CpuReservations.inDirectory(locks));
    PinnedThreadFactory f =
        PinnedThreadFactory.builder(kit.group("p").pool(POOL).runOut(RunOutPolicy.SHARE)).build();
    LongAdder ran = new LongAdder();
    long maxSeats = 0;
    long maxLockFds = 0;

    for (int done = 0; done < THREADS; done += AT_ONCE) {
      List<Thread> batch = new ArrayList<>();
      for (int i = 0; i < AT_ONCE; i++) {
        batch.add(f.newThread(ran::increment));
      }
      maxSeats = Math.max(maxSeats, f.assignments().size());
      assertThat(f.held()).isEqualTo(POOL);
      batch.forEach(Thread::start);
      for (Thread t : batch) {
        t.join(10_000);
        assertThat(t.isAlive()).isFalse();
      }
      if (done % 2_000 == 0) {
        maxLockFds = Math.max(maxLockFds, openLockFiles());
      }
      assertThat(f.assignments()).isEmpty();
      assertThat(f.held().isEmpty()).isTrue();
    }

    assertThat(ran.sum()).isEqualTo(THREADS);
    assertThat(maxSeats).isEqualTo(AT_ONCE);
    assertThat(maxLockFds).isLessThanOrEqualTo(2L * POOL.size()); // one per lock file, ever
    assertThat(kit.pinnedThreadIds()).isEmpty();
    f.newThread(ran::increment); // created, never started: close() frees it
    f.close();
    assertThat(f.held().isEmpty()).isTrue();
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
  }

  /**
   * A Netty group closes its seats once the loops have terminated while each loop thread closes its
   * own as it unbinds: whichever comes second must not return before the first has freed the CPU
   * and ended the isolation (it did, and a closed group's isolation outlived its close). The test
   * holds the group's lock so the first close stops inside; the second must wait, not return.
   */
  @Test
  @Timeout(30)
  void shouldReturnFromASecondCloseOnlyOnceTheFirstHasFreedTheCpuAndTheIsolation(@TempDir Path root)
      throws Exception {
    AffinityKit kit = io.github.affinitykit.core.testkit.FixtureKits.isolating(root, 4);
    CpuGroup group = kit.group("iso").isolate(true).build();
    Seat seat = group.joinAll(1).get(0);
    var iso = group.isolation().orElseThrow();
    assertThat(iso.isActive()).as(iso.reason()).isTrue();
    java.util.concurrent.CountDownLatch end = new java.util.concurrent.CountDownLatch(1);
    Thread loop = new Thread(seat.bound(() -> await(end)), "loop");
    loop.start();
    while (!seat.isBound()) {
      Thread.sleep(1);
    }
    group.close(); // closed, but its seat is bound: it stays until one closes it
    java.util.concurrent.atomic.AtomicBoolean secondReturned =
        new java.util.concurrent.atomic.AtomicBoolean();
    Thread first = new Thread(seat::close, "first-close");
    Thread second =
        new Thread(
            () -> {
              seat.close();
              secondReturned.set(true);
            },
            "second-close");
    synchronized (group) {
      first.start();
      awaitState(first, Thread.State.BLOCKED);
      second.start();
      awaitState(second, Thread.State.BLOCKED);
      assertThat(secondReturned).as("returned while the first close was still freeing").isFalse();
      assertThat(iso.isActive()).isTrue();
    }
    first.join(10_000);
    second.join(10_000);
    end.countDown();
    loop.join(10_000);
    assertThat(secondReturned).isTrue();
    assertThat(iso.isActive()).as("undone by the group's last seat").isFalse();
    assertThat(group.held().isEmpty()).isTrue();
  }

  private static void await(java.util.concurrent.CountDownLatch end) {
    try {
      end.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits until {@code t} is in {@code state}, or has returned (then the assertions say why). */
  private static void awaitState(Thread t, Thread.State state) throws InterruptedException {
    while (t.getState() != state && t.getState() != Thread.State.TERMINATED) {
      Thread.sleep(1);
    }
  }

  /** Descriptors this process has open on files in the lock directory. */
  private long openLockFiles() throws IOException {
    Path real = locks.toRealPath();
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.filter(fd -> target(fd).startsWith(real.toString())).count();
    }
  }

  private static String target(Path fd) {
    try {
      return Files.readSymbolicLink(fd).toString();
    } catch (IOException e) {
      return ""; // closed meanwhile
    }
  }
}
