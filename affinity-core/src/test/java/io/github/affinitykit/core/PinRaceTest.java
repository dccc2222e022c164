package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.PinTrapBackend;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A race of the pin state forced at its one interleaving by a backend that acts in the middle of a
 * system call: a seat closed while a thread binds it. The watchdogs' races (a late re-pin after its
 * lease closed, two watchdogs sharing one lease's moves) are affinity-watchdog's {@code
 * RepinRaceTest}.
 */
@Timeout(30)
class PinRaceTest {
  private static final int CPU = 2;

  @TempDir Path root;
  @TempDir Path locks;
  private final RecordingAffinityBackend sim = new RecordingAffinityBackend(CpuSet.range(0, 5));
  private final PinTrapBackend backend = new PinTrapBackend(sim);

  private AffinityKit kit() {
    return AffinityKit.create(
        FakeHost.create(root, 6, 1).probe(), backend, CpuReservations.inDirectory(locks));
  }

  @Test
  void shouldSetTheMaskBackAndTellNoPinWhenTheSeatClosesDuringTheBind() {
    AffinityKit kit = kit();
    CpuGroup group = kit.group("c").cpus(CPU).build();
    Seat seat = group.joinAll(1).get(0);
    int self = sim.currentThreadId();
    CpuSet before = sim.maskOf(self);
    backend.onPin(seat::close); // after the kernel bound the thread, before the bind settled

    CpuLease lease = seat.bind();

    assertThat(lease.status()).isEqualTo(LeaseStatus.RELEASED);
    assertThat(lease.cpu()).isEqualTo(-1);
    assertThat(sim.maskOf(self)).as("not left on a CPU the close freed").isEqualTo(before);
    assertThat(kit.lease(self)).as("not among the pinned threads").isEmpty();
    assertThat(seat.isBound()).isFalse();
    assertThat(group.held().isEmpty()).isTrue();
    lease.close();
    group.close();
  }
}
