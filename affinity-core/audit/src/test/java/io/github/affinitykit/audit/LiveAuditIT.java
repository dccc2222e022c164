package io.github.affinitykit.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.ExclusivityAudit;
import io.github.affinitykit.core.PinnedThreadFactory;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
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
 * The audit of this machine's {@code /proc}, with real pinning: an intruder on the pinned CPU is
 * seen, and is gone once the rest of the JVM is confined; {@code AffinityKit.audit} finds this
 * artifact through {@link java.util.ServiceLoader}. Assumes only what a 2-CPU Linux box gives: the
 * last reachable CPU is pinned, the first one is housekeeping.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(60)
class LiveAuditIT {
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
  void shouldAuditThroughTheKitWithThisArtifact() {
    ExclusivityAudit audit = kit.audit(CpuSet.of(cpu), Duration.ofMillis(50));
    assertThat(audit).isInstanceOf(CpuAudit.class);
    assertThat(audit.audited()).isEqualTo(CpuSet.of(cpu));
    assertThat(audit.summary()).startsWith("cpu " + cpu + ": ");
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
      CpuVerdict shared = CpuAudit.of(kit, CpuSet.of(cpu), Duration.ofMillis(300)).verdict(cpu);
      assertThat(shared.verdict()).isEqualTo(CpuVerdict.Verdict.INTRUDED);
      assertThat(shared.intruders())
          .anySatisfy(i -> assertThat(i.tid()).isEqualTo(intruderTid.get()));

      report = JvmThreads.of(kit).confine(housekeeping, Set.of());
      assertThat(report.moved()).anySatisfy(e -> assertThat(e.tid()).isEqualTo(intruderTid.get()));
      assertThat(report.kept()).hasSize(1);

      CpuVerdict after = CpuAudit.of(kit, CpuSet.of(cpu), Duration.ofMillis(300)).verdict(cpu);
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
