package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.internal.natives.Errno;
import io.github.affinitykit.core.memory.MemoryBackend;
import io.github.affinitykit.core.memory.MemoryPolicy;
import io.github.affinitykit.core.memory.MemoryPolicyStatus;
import io.github.affinitykit.core.memory.MemoryPolicyStatus.State;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.Fixtures;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import io.github.affinitykit.core.testkit.RecordingMemoryBackend;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A group's memory policy on fixture kits: the seed machine's two nodes (node 0 = CPUs 0-5,12-17,
 * node 1 = 6-11,18-23), simulated masks and simulated per-thread policies; nothing on this host
 * changes.
 */
@Timeout(30)
class MemoryPolicyPinTest {
  private static final HostCpus E5 = HostCpus.probe(Fixtures.root(Fixtures.E5));

  @TempDir Path locks;
  private final RecordingAffinityBackend affinity =
      new RecordingAffinityBackend(CpuSet.range(0, 23));
  private final RecordingMemoryBackend memory = new RecordingMemoryBackend(affinity, 0, 1);

  private AffinityKit kit(MemoryBackend backend) {
    return AffinityKit.create(
        E5,
        affinity,
        CpuReservations.inDirectory(locks),
        E5.pool(),
        new io.github.affinitykit.core.testkit.FakeIsolator(),
        backend);
  }

  @Test
  void shouldSetThePolicyRightAfterThePinAndRestoreItWhenTheLeaseCloses() {
    CpuGroup g = kit(memory).group("w").cpus(7).memoryPolicy(MemoryPolicy.bind(1)).build();
    Seat seat = g.join();
    CpuLease lease = seat.bind();
    Thread self = Thread.currentThread();

    assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
    assertThat(lease.memoryPolicy())
        .isEqualTo(new MemoryPolicyStatus(MemoryPolicy.bind(1), State.IN_FORCE, 0, "was default"));
    assertThat(seat.memoryPolicy()).isEqualTo(lease.memoryPolicy());
    assertThat(memory.policyOf(self)).isEqualTo(MemoryPolicy.bind(1));
    assertThat(lease).asString().endsWith(", memory bind 1: IN_FORCE (was default)]");
    assertThat(seat).asString().contains("memory bind 1: IN_FORCE");

    lease.close();
    assertThat(memory.policyOf(self)).isEqualTo(MemoryPolicy.DEFAULT);
    assertThat(lease.memoryPolicy().state()).isEqualTo(State.RESTORED);
    assertThat(seat.memoryPolicy().reason()).isEqualTo("back to default");
    // read and set on the pinned CPU, the restore while it still is: policy first, mask last
    assertThat(memory.calls())
        .extracting(c -> c.operation(), c -> c.policy(), c -> c.mask())
        .containsExactly(
            tuple("read", MemoryPolicy.DEFAULT, CpuSet.of(7)),
            tuple("set", MemoryPolicy.bind(1), CpuSet.of(7)),
            tuple("read", MemoryPolicy.bind(1), CpuSet.of(7)),
            tuple("set", MemoryPolicy.DEFAULT, CpuSet.of(7)));
    assertThat(affinity.maskOf(lease.tid())).isEqualTo(CpuSet.range(0, 23));
    g.close();
  }

  @Test
  void shouldLeaveAPolicyTheThreadChangedSinceTheBindAndSaySo() {
    CpuGroup g = kit(memory).group("w").cpus(7).memoryPolicy(MemoryPolicy.bind(1)).build();
    Seat seat = g.join();
    CpuLease lease = seat.bind();
    memory.set(MemoryPolicy.bind(0)); // the application's own call, on the same thread
    lease.close();
    assertThat(memory.policyOf(Thread.currentThread())).isEqualTo(MemoryPolicy.bind(0));
    assertThat(lease.memoryPolicy().state()).isEqualTo(State.NOT_RESTORED);
    assertThat(lease.memoryPolicy().reason())
        .isEqualTo("changed since the bind (now bind 0): left as it is");
    g.close();
  }

  @Test
  void shouldRefuseThePolicyNotThePinWhenTheBackendThrows() {
    MemoryBackend throwing =
        new MemoryBackend() {
          @Override
          public boolean isSupported() {
            return true;
          }

          @Override
          public String reason() {
            return "throws";
          }

          @Override
          public Reading read() {
            throw new IllegalStateException("boom");
          }

          @Override
          public int set(MemoryPolicy policy) {
            throw new IllegalStateException("boom");
          }
        };
    CpuGroup g = kit(throwing).group("w").cpus(7).memoryPolicy(MemoryPolicy.bind(1)).build();
    try (CpuLease lease = g.join().bind()) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
      assertThat(lease.memoryPolicy().state()).isEqualTo(State.FAILED);
      assertThat(lease.memoryPolicy().reason()).isEqualTo("java.lang.IllegalStateException: boom");
    }
    g.close();
  }

  @Test
  void shouldRestoreTheMaskAndFreeTheCpuWhenTheBackendThrowsOnRestore() {
    MemoryBackend failsLater =
        new MemoryBackend() {
          @Override
          public boolean isSupported() {
            return true;
          }

          @Override
          public String reason() {
            return "fails once the policy is in force";
          }

          @Override
          public Reading read() {
            return memory.read();
          }

          @Override
          public int set(MemoryPolicy policy) {
            if (policy.equals(MemoryPolicy.DEFAULT)) { // the restore
              throw new IllegalStateException("boom");
            }
            return memory.set(policy);
          }
        };
    CpuSet before = affinity.getAffinity(0);
    CpuGroup g = kit(failsLater).group("w").cpus(7).memoryPolicy(MemoryPolicy.bind(1)).build();
    CpuLease lease = g.join().bindOnce();
    assertThat(lease.memoryPolicy().state()).isEqualTo(State.IN_FORCE);

    lease.close();

    assertThat(lease.memoryPolicy().state()).isEqualTo(State.NOT_RESTORED);
    assertThat(lease.memoryPolicy().reason())
        .isEqualTo("the backend failed: java.lang.IllegalStateException: boom");
    assertThat(affinity.getAffinity(0)).isEqualTo(before); // the mask is restored all the same
    assertThat(lease.status()).isEqualTo(LeaseStatus.RELEASED);
    assertThat(g.held().isEmpty()).isTrue();
    g.close();
  }

  @Test
  void shouldRestoreThePolicyTheThreadHadBefore() {
    CpuGroup g = kit(memory).group("w").cpus(3).memoryPolicy(MemoryPolicy.LOCAL).build();
    assertThat(memory.set(MemoryPolicy.interleave(0, 1))).isZero();
    try (CpuLease lease = g.join().bindOnce()) {
      assertThat(memory.policyOf(Thread.currentThread())).isEqualTo(MemoryPolicy.LOCAL);
      assertThat(lease.memoryPolicy().reason()).isEqualTo("was interleave 0-1");
    }
    assertThat(memory.policyOf(Thread.currentThread())).isEqualTo(MemoryPolicy.interleave(0, 1));
  }

  @Test
  void shouldKeepThePinWhenTheKernelRefusesThePolicy() {
    CpuGroup g = kit(memory).group("w").cpus(2).memoryPolicy(MemoryPolicy.preferred(0)).build();
    memory.failNextSet(Errno.EPERM);
    CpuLease lease = g.join().bindOnce();

    assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
    assertThat(lease.cpu()).isEqualTo(2);
    assertThat(lease.memoryPolicy())
        .isEqualTo(
            new MemoryPolicyStatus(
                MemoryPolicy.preferred(0),
                State.FAILED,
                Errno.EPERM,
                "set_mempolicy: EPERM (1) Operation not permitted"));
    assertThat(lease)
        .asString()
        .contains("PINNED")
        .contains("memory preferred 0: FAILED (set_mempolicy: EPERM");
    lease.close();
    assertThat(lease.memoryPolicy().state()).isEqualTo(State.FAILED); // nothing to restore
    assertThat(memory.calls()).extracting(c -> c.operation()).containsExactly("read", "set");
  }

  @Test
  void shouldSayWhyWhereThePlatformHasNoPolicyCalls() {
    MemoryBackend none =
        new MemoryBackend() {
          @Override
          public boolean isSupported() {
            return false;
          }

          @Override
          public String reason() {
            return "os.name Mac OS X: only Linux is supported";
          }

          @Override
          public Reading read() {
            return new Reading(MemoryPolicy.DEFAULT, -1);
          }

          @Override
          public int set(MemoryPolicy policy) {
            return -1;
          }
        };
    CpuGroup g = kit(none).group("w").cpus(1).memoryPolicy(MemoryPolicy.bind(0)).build();
    try (CpuLease lease = g.join().bindOnce()) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
      assertThat(lease.memoryPolicy().state()).isEqualTo(State.FAILED);
      assertThat(lease.memoryPolicy().errno()).isEqualTo(-1);
      assertThat(lease.memoryPolicy().reason())
          .isEqualTo("os.name Mac OS X: only Linux is supported");
    }
  }

  @Test
  void shouldLeaveThePolicyOfMembersThatPinNothingAlone() {
    AffinityKit kit = kit(memory);
    CpuGroup off = kit.group("off").unpinned("asked").memoryPolicy(MemoryPolicy.bind(0)).build();
    try (CpuLease lease = off.join().bindOnce()) {
      assertThat(lease.memoryPolicy().state()).isEqualTo(State.LEFT_ALONE);
      assertThat(lease.memoryPolicy().reason()).isEqualTo("the seat pins nothing: UNPINNED");
    }
    CpuGroup g = kit.group("w").cpus(4).memoryPolicy(MemoryPolicy.bind(0)).build();
    affinity.failNextSetAffinity(Errno.EINVAL);
    try (CpuLease lease = g.join().bindOnce()) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.FAILED);
      assertThat(lease.memoryPolicy().state()).isEqualTo(State.LEFT_ALONE);
      assertThat(lease.memoryPolicy().reason()).isEqualTo("the pin failed: nothing set");
    }
    Seat closed = kit.group("c").cpus(6).memoryPolicy(MemoryPolicy.bind(0)).build().join();
    closed.close();
    try (CpuLease lease = closed.bind()) {
      assertThat(lease.memoryPolicy().reason()).isEqualTo("the seat is closed");
    }
    assertThat(memory.calls()).isEmpty();
  }

  @Test
  void shouldLeaveThePolicyAloneByDefault() {
    CpuGroup g = kit(memory).group("w").cpus(5).build();
    Seat seat = g.join();
    assertThat(seat.memoryPolicy().reason()).isEqualTo("no thread has bound the seat yet");
    try (CpuLease lease = seat.bindOnce()) {
      assertThat(lease.memoryPolicy())
          .isEqualTo(
              new MemoryPolicyStatus(
                  MemoryPolicy.DEFAULT,
                  State.LEFT_ALONE,
                  0,
                  "the thread's policy is left as it is"));
      assertThat(lease).asString().doesNotContain("memory");
    }
    assertThat(memory.calls()).isEmpty();
  }

  @Test
  void shouldKeepThePolicyWhenTheLeaseIsClosedFromAnotherThread() throws InterruptedException {
    CpuGroup g = kit(memory).group("w").cpus(8).memoryPolicy(MemoryPolicy.bind(1)).build();
    AtomicReference<CpuLease> bound = new AtomicReference<>();
    Thread t = new Thread(() -> bound.set(g.join().bindOnce()), "loop");
    t.start();
    t.join();

    bound.get().close();

    assertThat(bound.get().memoryPolicy().state()).isEqualTo(State.NOT_RESTORED);
    assertThat(bound.get().memoryPolicy().reason())
        .startsWith("ended from thread " + Thread.currentThread().getName() + ", not loop");
    assertThat(memory.policyOf(t)).isEqualTo(MemoryPolicy.bind(1));
  }

  @Test
  void shouldRefuseANodeTheHostLacksWhenTheGroupIsBuilt() {
    CpuGroupBuilder b = kit(memory).group("w").memoryPolicy(MemoryPolicy.interleave(0, 7));
    assertThatThrownBy(b::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("w: memoryPolicy nodes: 7 (expected: a node of this host: 0-1)");
  }
}
