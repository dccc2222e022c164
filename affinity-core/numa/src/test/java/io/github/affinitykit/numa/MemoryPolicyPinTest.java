package io.github.affinitykit.numa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuGroupBuilder;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.Seat;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.internal.natives.Errno;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.Fixtures;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import io.github.affinitykit.numa.MemoryPolicyStatus.State;
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

  private MemoryBackend backend;

  /** A kit on the E5 fixture whose groups' policies below go through {@code backend}. */
  private AffinityKit kit(MemoryBackend backend) {
    this.backend = backend;
    return AffinityKit.create(
        E5,
        affinity,
        CpuReservations.inDirectory(locks),
        E5.pool(),
        new io.github.affinitykit.core.testkit.FakeIsolator());
  }

  @Test
  void shouldSetThePolicyRightAfterThePinAndRestoreItWhenTheLeaseCloses() {
    CpuGroup g =
        kit(memory).group("w").cpus(7).memoryPolicy(MemoryPolicy.bind(1).through(backend)).build();
    Seat seat = g.join();
    CpuLease lease = seat.bind();
    Thread self = Thread.currentThread();

    assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
    assertThat(MemoryPolicyStatus.of(lease))
        .isEqualTo(new MemoryPolicyStatus(MemoryPolicy.bind(1), State.IN_FORCE, 0, "was default"));
    assertThat(MemoryPolicyStatus.of(seat)).isEqualTo(MemoryPolicyStatus.of(lease));
    assertThat(memory.policyOf(self)).isEqualTo(MemoryPolicy.bind(1));
    assertThat(lease).asString().endsWith(", memory bind 1: IN_FORCE (was default)]");
    assertThat(seat).asString().contains("memory bind 1: IN_FORCE");

    lease.close();
    assertThat(memory.policyOf(self)).isEqualTo(MemoryPolicy.DEFAULT);
    assertThat(MemoryPolicyStatus.of(lease).state()).isEqualTo(State.RESTORED);
    assertThat(MemoryPolicyStatus.of(seat).reason()).isEqualTo("back to default");
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
    CpuGroup g =
        kit(memory).group("w").cpus(7).memoryPolicy(MemoryPolicy.bind(1).through(backend)).build();
    Seat seat = g.join();
    CpuLease lease = seat.bind();
    memory.set(MemoryPolicy.bind(0)); // the application's own call, on the same thread
    lease.close();
    assertThat(memory.policyOf(Thread.currentThread())).isEqualTo(MemoryPolicy.bind(0));
    assertThat(MemoryPolicyStatus.of(lease).state()).isEqualTo(State.NOT_RESTORED);
    assertThat(MemoryPolicyStatus.of(lease).reason())
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
    CpuGroup g =
        kit(throwing)
            .group("w")
            .cpus(7)
            .memoryPolicy(MemoryPolicy.bind(1).through(backend))
            .build();
    try (CpuLease lease = g.join().bind()) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
      assertThat(MemoryPolicyStatus.of(lease).state()).isEqualTo(State.FAILED);
      assertThat(MemoryPolicyStatus.of(lease).reason())
          .isEqualTo("java.lang.IllegalStateException: boom");
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
    CpuGroup g =
        kit(failsLater)
            .group("w")
            .cpus(7)
            .memoryPolicy(MemoryPolicy.bind(1).through(backend))
            .build();
    CpuLease lease = g.join().bindOnce();
    assertThat(MemoryPolicyStatus.of(lease).state()).isEqualTo(State.IN_FORCE);

    lease.close();

    assertThat(MemoryPolicyStatus.of(lease).state()).isEqualTo(State.NOT_RESTORED);
    assertThat(MemoryPolicyStatus.of(lease).reason())
        .isEqualTo("the backend failed: java.lang.IllegalStateException: boom");
    assertThat(affinity.getAffinity(0)).isEqualTo(before); // the mask is restored all the same
    assertThat(lease.status()).isEqualTo(LeaseStatus.RELEASED);
    assertThat(g.held().isEmpty()).isTrue();
    g.close();
  }

  @Test
  void shouldRestoreThePolicyTheThreadHadBefore() {
    CpuGroup g =
        kit(memory).group("w").cpus(3).memoryPolicy(MemoryPolicy.LOCAL.through(backend)).build();
    assertThat(memory.set(MemoryPolicy.interleave(0, 1))).isZero();
    try (CpuLease lease = g.join().bindOnce()) {
      assertThat(memory.policyOf(Thread.currentThread())).isEqualTo(MemoryPolicy.LOCAL);
      assertThat(MemoryPolicyStatus.of(lease).reason()).isEqualTo("was interleave 0-1");
    }
    assertThat(memory.policyOf(Thread.currentThread())).isEqualTo(MemoryPolicy.interleave(0, 1));
  }

  @Test
  void shouldKeepThePinWhenTheKernelRefusesThePolicy() {
    CpuGroup g =
        kit(memory)
            .group("w")
            .cpus(2)
            .memoryPolicy(MemoryPolicy.preferred(0).through(backend))
            .build();
    memory.failNextSet(Errno.EPERM);
    CpuLease lease = g.join().bindOnce();

    assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
    assertThat(lease.cpu()).isEqualTo(2);
    assertThat(MemoryPolicyStatus.of(lease))
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
    assertThat(MemoryPolicyStatus.of(lease).state()).isEqualTo(State.FAILED); // nothing to restore
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
    CpuGroup g =
        kit(none).group("w").cpus(1).memoryPolicy(MemoryPolicy.bind(0).through(backend)).build();
    try (CpuLease lease = g.join().bindOnce()) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
      assertThat(MemoryPolicyStatus.of(lease).state()).isEqualTo(State.FAILED);
      assertThat(MemoryPolicyStatus.of(lease).errno()).isEqualTo(-1);
      assertThat(MemoryPolicyStatus.of(lease).reason())
          .isEqualTo("os.name Mac OS X: only Linux is supported");
    }
  }

  @Test
  void shouldLeaveThePolicyOfMembersThatPinNothingAlone() {
    AffinityKit kit = kit(memory);
    CpuGroup off =
        kit.group("off")
            .unpinned("asked")
            .memoryPolicy(MemoryPolicy.bind(0).through(backend))
            .build();
    try (CpuLease lease = off.join().bindOnce()) {
      assertThat(MemoryPolicyStatus.of(lease).state()).isEqualTo(State.LEFT_ALONE);
      assertThat(MemoryPolicyStatus.of(lease).reason())
          .isEqualTo("the seat pins nothing: UNPINNED");
    }
    CpuGroup g = kit.group("w").cpus(4).memoryPolicy(MemoryPolicy.bind(0).through(backend)).build();
    affinity.failNextSetAffinity(Errno.EINVAL);
    try (CpuLease lease = g.join().bindOnce()) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.FAILED);
      assertThat(MemoryPolicyStatus.of(lease).state()).isEqualTo(State.LEFT_ALONE);
      assertThat(MemoryPolicyStatus.of(lease).reason()).isEqualTo("the pin failed: nothing set");
    }
    Seat closed =
        kit.group("c").cpus(6).memoryPolicy(MemoryPolicy.bind(0).through(backend)).build().join();
    closed.close();
    try (CpuLease lease = closed.bind()) {
      assertThat(MemoryPolicyStatus.of(lease).reason()).isEqualTo("the seat is closed");
    }
    assertThat(memory.calls()).isEmpty();
  }

  @Test
  void shouldLeaveThePolicyAloneByDefault() {
    CpuGroup g = kit(memory).group("w").cpus(5).build();
    Seat seat = g.join();
    assertThat(seat.memoryPolicy()).isEmpty();
    assertThat(MemoryPolicyStatus.of(seat).state()).isEqualTo(State.LEFT_ALONE);
    try (CpuLease lease = seat.bindOnce()) {
      assertThat(lease.memoryPolicy()).isEmpty();
      assertThat(MemoryPolicyStatus.of(lease))
          .isEqualTo(
              new MemoryPolicyStatus(MemoryPolicy.DEFAULT, State.LEFT_ALONE, 0, "none asked"));
      assertThat(lease).asString().doesNotContain("memory");
    }
    CpuGroup d = kit(memory).group("d").cpus(6).memoryPolicy(MemoryPolicy.DEFAULT).build();
    Seat asked = d.join();
    assertThat(MemoryPolicyStatus.of(asked).reason()).isEqualTo("no thread has bound the seat yet");
    try (CpuLease lease = asked.bindOnce()) {
      assertThat(MemoryPolicyStatus.of(lease))
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
    CpuGroup g =
        kit(memory).group("w").cpus(8).memoryPolicy(MemoryPolicy.bind(1).through(backend)).build();
    AtomicReference<CpuLease> bound = new AtomicReference<>();
    Thread t = new Thread(() -> bound.set(g.join().bindOnce()), "loop");
    t.start();
    t.join();

    bound.get().close();

    assertThat(MemoryPolicyStatus.of(bound.get()).state()).isEqualTo(State.NOT_RESTORED);
    assertThat(MemoryPolicyStatus.of(bound.get()).reason())
        .startsWith("ended from thread " + Thread.currentThread().getName() + ", not loop");
    assertThat(memory.policyOf(t)).isEqualTo(MemoryPolicy.bind(1));
  }

  @Test
  void shouldRefuseANodeTheHostLacksWhenTheGroupIsBuilt() {
    CpuGroupBuilder b =
        kit(memory).group("w").memoryPolicy(MemoryPolicy.interleave(0, 7).through(backend));
    assertThatThrownBy(b::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("w: memoryPolicy nodes: 7 (expected: a node of this host: 0-1)");
  }
}
