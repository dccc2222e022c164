package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.reservation.Reservation;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.ForwardingAffinityBackend;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AffinityKit#pinCurrentThread()} and {@link AffinityKit#pinCurrentThread(int)}: a group of
 * one per call, bound by its seat; a refusal leaves the thread's mask as it is.
 */
@Timeout(30)
class PinCurrentThreadTest {
  private final RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, 3));
  @TempDir Path locks;
  private HostCpus host;
  private AffinityKit kit;

  @BeforeEach
  void setUp(@TempDir Path root) {
    host = FakeHost.create(root, 4, 1).probe();
    kit = AffinityKit.create(host, backend, CpuReservations.inDirectory(locks));
  }

  @Test
  void shouldRefuseACpuThisJvmHoldsInsteadOfSharingIt() {
    try (CpuLease first = kit.pinCurrentThread(2)) {
      backend.clearCalls();
      try (CpuLease second = kit.pinCurrentThread(2)) {
        assertThat(second.status()).isEqualTo(LeaseStatus.UNPINNED);
        assertThat(second.reason()).startsWith("cpu 2: already reserved by this JVM (pid ");
        assertThat(second.cpu()).isEqualTo(-1);
      }
      assertThat(backend.calls()).noneMatch(c -> c.operation().equals("setAffinity"));
      assertThat(first.status()).isEqualTo(LeaseStatus.PINNED);
      assertThat(kit.reservations().reservedHere()).hasToString("2");
      assertThat(kit.pinnedThreadIds()).containsExactly(first.tid());
    }
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
    assertThat(kit.pinnedThreadIds()).isEmpty();
  }

  @Test
  void shouldLeaveTheMaskAloneWhenNoCpuOfThePoolIsFree() {
    backend.setAffinity(0, CpuSet.of(1));
    List<Reservation> all = new ArrayList<>();
    for (int cpu = 0; cpu < 4; cpu++) {
      all.add(kit.reservations().tryReserve(cpu).orElseThrow());
    }
    backend.clearCalls();
    try (CpuLease lease = kit.pinCurrentThread()) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.UNPINNED);
      assertThat(lease.reason())
          .contains("every CPU is held")
          .contains("cpu 1: already reserved by this JVM")
          .contains("runs unpinned on the CPUs it inherits");
    } finally {
      all.forEach(Reservation::close);
    }
    assertThat(backend.calls()).noneMatch(call -> call.operation().equals("setAffinity"));
    assertThat(backend.getAffinity(0)).hasToString("1");
  }

  @Test
  void shouldBindAndRestoreThroughTheSeat() {
    CpuSet before = backend.getAffinity(0);
    try (CpuLease lease = kit.pinCurrentThread()) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
      assertThat(lease.cpu()).isEqualTo(kit.pool().cpus().first());
      assertThat(lease.reason()).as("the seat's reason").isEqualTo("first free CPU");
      assertThat(lease.previousMask()).isEqualTo(before);
      assertThat(backend.getAffinity(0)).isEqualTo(CpuSet.of(lease.cpu()));
      assertThat(kit.pinnedThreadIds()).containsExactly(lease.tid());
    }
    assertThat(backend.getAffinity(0)).isEqualTo(before);
    assertThat(kit.pinnedThreadIds()).isEmpty();
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
  }

  @Test
  void shouldRejectAnUnreachableCpuBeforeAskingThePlatform() {
    AffinityKit off =
        AffinityKit.create(
            host,
            AffinityBackend.unsupported("no pinning here"),
            CpuReservations.inDirectory(locks));

    assertThatThrownBy(() -> off.pinCurrentThread(7))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cpu: 7 (expected: one of the CPUs this process may use: 0-3)");
    try (CpuLease lease = off.pinCurrentThread(1)) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.UNSUPPORTED);
      assertThat(lease.reason()).isEqualTo("no pinning here");
    }
    assertThat(off.reservations().reservedHere().isEmpty()).isTrue();
  }

  @Test
  void shouldSayFailedWithANonEmptyReasonWhenTheRefusalHasNoMessage() {
    AffinityKit refusing =
        AffinityKit.create(host, new Refusing(backend), CpuReservations.inDirectory(locks));
    try (CpuLease lease = refusing.pinCurrentThread()) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.FAILED);
      assertThat(lease.reason()).isEqualTo("java.lang.IllegalArgumentException");
      assertThat(refusing.pinnedThreadIds()).isEmpty();
    }
    assertThat(refusing.reservations().reservedHere().isEmpty()).isTrue();
  }

  /** A backend whose kernel refuses every bind with an exception that carries no message. */
  private static final class Refusing extends ForwardingAffinityBackend {
    Refusing(AffinityBackend real) {
      super(real);
    }

    @Override
    public boolean isSupported() {
      return true;
    }

    @Override
    public String reason() {
      return "refusing";
    }

    @Override
    public void setAffinity(int tid, CpuSet cpus) {
      throw new IllegalArgumentException();
    }
  }
}
