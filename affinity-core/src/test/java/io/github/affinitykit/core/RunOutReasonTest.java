package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.reservation.Reservation;
import io.github.affinitykit.core.testkit.Fixtures;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Why a {@link PinnedThreadFactory} left a thread unpinned: an empty pool, a pool whose every CPU
 * is held, and lock files that cannot be used read differently. Threads are created, never started.
 * A holder in another JVM: {@link RunOutReasonIT}.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 60, threadMode = ThreadMode.SEPARATE_THREAD)
class RunOutReasonTest {
  private static final HostCpus E5 = HostCpus.probe(Fixtures.root(Fixtures.E5));

  @TempDir Path tmp;

  /** A kit on the E5 fixture whose binds are recorded, reserving in {@code reservations}. */
  static AffinityKit kit(CpuReservations reservations) {
    return AffinityKit.create(E5, new RecordingAffinityBackend(CpuSet.range(0, 23)), reservations);
  }

  /** The reason of the first thread of a factory on {@code pool}, which must leave it unpinned. */
  static String firstReason(AffinityKit kit, CpuSet pool) {
    try (PinnedThreadFactory f = PinnedThreadFactory.builder(kit.group("w").pool(pool)).build()) {
      f.newThread(() -> {});
      Assignment a = f.assignments().get(0);
      assertThat(a.status()).isEqualTo(LeaseStatus.UNPINNED);
      return a.reason();
    }
  }

  // A member that gets no CPU runs on the reachable CPUs less the isolated 19-23.
  @Test
  void shouldSayThePoolIsEmptyWhenItIs() {
    String reason = firstReason(kit(CpuReservations.inDirectory(tmp)), CpuSet.empty());
    assertThat(reason)
        .isEqualTo(
            "w: no CPU of pool  left for w-0 (the pool is empty); runs unpinned on CPUs 0-18");
  }

  @Test
  void shouldSayEveryCpuIsHeldNamingTheHolders() {
    CpuReservations reservations = CpuReservations.inDirectory(tmp);
    AffinityKit kit = kit(reservations);
    try (Reservation other = reservations.tryReserve(21).orElseThrow();
        PinnedThreadFactory f =
            PinnedThreadFactory.builder(kit.group("w").pool(CpuSet.of(20, 21))).build()) {
      f.newThread(() -> {});
      f.newThread(() -> {});
      assertThat(f.assignments().get(1).reason())
          .isEqualTo(
              "w: no CPU of pool 20-21 left for w-1 (every CPU is held: cpu 20 by this group;"
                  + " cpu 21: already reserved by this JVM (pid "
                  + ProcessHandle.current().pid()
                  + ") in "
                  + reservations.lockFile(21)
                  + "); runs unpinned on CPUs 0-18");
      assertThat(other.isHeld()).isTrue();
    }
  }

  @Test
  void shouldSayItCannotReserveWhenTheLockDirectoryFails() throws IOException {
    Path file = Files.writeString(tmp.resolve("plain-file"), "not a directory");
    CpuReservations nowhere = CpuReservations.inDirectory(file.resolve("locks"));
    String reason = firstReason(kit(nowhere), CpuSet.of(20));
    assertThat(reason)
        .startsWith(
            "w: no CPU of pool 20 left for w-0 (cannot reserve (I/O error or refused lock file):"
                + " cpu 20: cannot create directory "
                + file.resolve("locks"))
        .doesNotContain("every CPU", "exhausted");
  }
}
