package io.github.affinitykit.numa;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.numa.MemoryPolicyStatus.State;
import io.github.affinitykit.numa.internal.MemoryCalls;
import io.github.affinitykit.numa.internal.MemoryLayer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A group's memory policy on this host (node 0, which every Linux host has): a real thread pinned
 * with {@code bind(0)} or {@code LOCAL} reads it back through {@code get_mempolicy}, and its
 * previous policy once the lease is closed. Lock files in a private directory.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(30)
class LiveMemoryPolicyTest {
  @TempDir Path locks;

  @Test
  void shouldSetTheThreadsPolicyWhileItIsPinnedAndRestoreItAfter() throws InterruptedException {
    AffinityKit kit =
        AffinityKit.create(
            HostCpus.probe(), AffinityBackend.detect(), CpuReservations.inDirectory(locks));
    MemoryCalls calls = MemoryLayer.system().calls().orElseThrow();
    org.junit.jupiter.api.Assumptions.assumeTrue(
        policy(calls).equals(List.of(MemoryCalls.MPOL_DEFAULT, 0L)),
        "this JVM inherited a memory policy (numactl?): the test expects DEFAULT around it");
    List<Object> seen = new ArrayList<>();
    Thread t =
        new Thread(
            () -> {
              for (MemoryPolicy p : List.of(MemoryPolicy.bind(0), MemoryPolicy.LOCAL)) {
                CpuGroup g = kit.group("mem").memoryPolicy(p).build();
                try (CpuLease lease = g.join().bindOnce()) {
                  seen.add(lease.status());
                  seen.add(MemoryPolicyStatus.of(lease).state());
                  seen.add(local(policy(calls)));
                }
                seen.add(policy(calls));
              }
            },
            "live-memory");
    t.start();
    t.join();

    assertThat(seen)
        .containsExactly(
            LeaseStatus.PINNED,
            State.IN_FORCE,
            List.of(MemoryCalls.MPOL_BIND, 1L),
            List.of(MemoryCalls.MPOL_DEFAULT, 0L),
            LeaseStatus.PINNED,
            State.IN_FORCE,
            List.of(MemoryCalls.MPOL_LOCAL, 0L),
            List.of(MemoryCalls.MPOL_DEFAULT, 0L));
    assertThat(MemoryBackend.detect().isSupported()).isTrue();
    assertThat(MemoryBackend.detect().reason())
        .startsWith("Linux: ")
        .endsWith(" calls set_mempolicy");
  }

  /** Before 5.13, get_mempolicy reports LOCAL as PREFERRED with no node: read both as LOCAL. */
  private static List<Object> local(List<Object> policy) {
    return policy.equals(List.of(MemoryCalls.MPOL_PREFERRED, 0L))
        ? List.of(MemoryCalls.MPOL_LOCAL, 0L)
        : policy;
  }

  /** The calling thread's mode and first mask word, as {@code get_mempolicy} says. */
  private static List<Object> policy(MemoryCalls calls) {
    int[] mode = {-1};
    long[] mask = new long[16];
    int r = calls.getMempolicy(mode, mask, MemoryCalls.maxnode(mask), 0, 0);
    return r == 0 ? List.of(mode[0], mask[0]) : List.of(r);
  }
}
