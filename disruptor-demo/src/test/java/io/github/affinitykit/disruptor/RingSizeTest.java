package io.github.affinitykit.disruptor;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.Fixtures;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A ring size the Disruptor would refuse is refused by the builder, before any CPU is held. */
@Timeout(10)
class RingSizeTest {
  @TempDir Path locks;

  @Test
  void shouldRefuseARingSizeThatIsNotAPowerOfTwoBeforeReservingAnything() {
    AffinityKit kit =
        AffinityKit.create(
            HostCpus.probe(Fixtures.root(Fixtures.E5)),
            new RecordingAffinityBackend(CpuSet.range(0, 23)),
            CpuReservations.inDirectory(locks));
    PinnedDisruptorBuilder<TestEvent> b = PinnedDisruptor.builder(kit, TestEvent::new);

    assertThatThrownBy(() -> b.ringSize(1000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ringSize: 1000 (expected: a power of two, 1 or more)");
    assertThatThrownBy(() -> b.ringSize(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
