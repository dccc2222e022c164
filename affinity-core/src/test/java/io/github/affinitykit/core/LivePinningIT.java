package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.observe.ConfineReport;
import io.github.affinitykit.core.observe.CpuVerdict;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.os.AffinityException;
import io.github.affinitykit.core.reservation.CpuReservations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real pinning on this machine. Assumes only what a 2-CPU Linux box gives: the last reachable CPU
 * is pinned, the first one is housekeeping.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(60)
class LivePinningIT {
  private static volatile long sink;

  @TempDir Path locks;
  private AffinityKit kit;
  private int cpu;
  private CpuSet housekeeping;

  @BeforeEach
  void setUp() {
    HostCpus host = HostCpus.probe();
    cpu = host.reachable().last();
    housekeeping = host.reachable().minus(CpuSet.of(cpu));
    kit =
        AffinityKit.create(
            host,
            AffinityBackend.detect(),
            CpuReservations.inDirectory(locks),
            host.pool(CpuSet.of(cpu)));
  }

  @Test
  void shouldRunAPinnedThreadOnItsAssignedCpu() throws Exception {
    PinnedThreadFactory f = PinnedThreadFactory.builder(kit.group("live")).build();
    CountDownLatch done = new CountDownLatch(1);
    String[] seen = new String[2];
    Thread t =
        f.newThread(
            () -> {
              seen[0] = Linux.cpusAllowedList();
              seen[1] = String.valueOf(kit.backend().currentCpu());
              done.countDown();
            });
    Assignment a = f.assignments().get(0);
    t.start();
    assertThat(done.await(20, TimeUnit.SECONDS)).isTrue();
    t.join(10_000);

    assertThat(a.cpu()).isEqualTo(cpu);
    assertThat(seen[0]).isEqualTo(String.valueOf(cpu));
    assertThat(seen[1]).isEqualTo(String.valueOf(cpu));
    assertThat(a.status()).isEqualTo(LeaseStatus.PINNED);
    assertThat(f.assignments()).isEmpty();
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
  }

  @Test
  void shouldRestoreTheMaskWhenTheLeaseIsClosedFromAnotherThread() throws Exception {
    String before = Linux.cpusAllowedList();
    CpuLease[] lease = new CpuLease[1];
    CountDownLatch pinned = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    String[] after = new String[2];
    Thread t =
        new Thread(
            () -> {
              lease[0] = kit.pinCurrentThread(cpu);
              after[0] = Linux.cpusAllowedList();
              pinned.countDown();
              try {
                closed.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              after[1] = Linux.cpusAllowedList();
            });
    t.start();
    try {
      assertThat(pinned.await(20, TimeUnit.SECONDS)).isTrue();
      assertThat(lease[0].status()).isEqualTo(LeaseStatus.PINNED);
      assertThat(after[0]).isEqualTo(String.valueOf(cpu));
      lease[0].close(); // from the test thread, not the owner
      assertThat(lease[0].status()).isEqualTo(LeaseStatus.RELEASED);
    } finally {
      closed.countDown();
      t.join(10_000);
    }
    assertThat(after[1]).isEqualTo(before);
    assertThat(kit.reservations().tryReserve(cpu).orElseThrow().isHeld()).isTrue();
  }

  @Test
  void shouldSeeTheIntruderInTheAuditAndNotAfterConfine() throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger intruderTid = new AtomicInteger();
    CountDownLatch ready = new CountDownLatch(2);
    PinnedThreadFactory f = PinnedThreadFactory.builder(kit.group("owner")).build();
    Thread owner = f.newThread(() -> spin(stop, ready));
    Thread intruder =
        new Thread(
            () -> {
              intruderTid.set(kit.backend().currentThreadId());
              kit.backend().setAffinity(0, CpuSet.of(cpu)); // someone else's thread on "our" CPU
              spin(stop, ready);
            },
            "intruder");
    owner.start();
    intruder.start();
    ConfineReport report = null;
    try {
      assertThat(ready.await(20, TimeUnit.SECONDS)).isTrue();
      CpuVerdict shared = kit.audit(CpuSet.of(cpu), Duration.ofMillis(300)).verdict(cpu);
      assertThat(shared.verdict()).isEqualTo(CpuVerdict.Verdict.INTRUDED);
      assertThat(shared.intruders())
          .anySatisfy(i -> assertThat(i.tid()).isEqualTo(intruderTid.get()));

      report = kit.jvmThreads().confine(housekeeping, Set.of());
      assertThat(report.moved()).anySatisfy(e -> assertThat(e.tid()).isEqualTo(intruderTid.get()));
      assertThat(report.kept()).hasSize(1);

      CpuVerdict after = kit.audit(CpuSet.of(cpu), Duration.ofMillis(300)).verdict(cpu);
      assertThat(after.intruders())
          .noneSatisfy(i -> assertThat(i.tid()).isEqualTo(intruderTid.get()));
    } finally {
      stop.set(true);
      owner.join(10_000);
      intruder.join(10_000);
      if (report != null) {
        restore(report);
      }
    }
  }

  private void spin(AtomicBoolean stop, CountDownLatch ready) {
    ready.countDown();
    long x = 0;
    while (!stop.get()) {
      x++;
    }
    sink = x; // keeps the loop from being optimised away
  }

  /** Puts the JVM's other threads (surefire's included) back where they were. */
  private void restore(ConfineReport report) {
    for (ConfineReport.Entry e : report.moved()) {
      try {
        kit.backend().setAffinity(e.tid(), e.before());
      } catch (AffinityException ignored) {
        // the thread has ended
      }
    }
  }
}
