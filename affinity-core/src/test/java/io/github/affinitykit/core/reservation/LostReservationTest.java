package io.github.affinitykit.core.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.testkit.Fixtures;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A lock file deleted or replaced under a held reservation (OpenHFT deletes {@code cpu-N.lock} on
 * release, even one it did not hold) is found, shown in the reservation's and the lease's status,
 * and counted once.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(30)
class LostReservationTest {
  private static final HostCpus E5 = HostCpus.probe(Fixtures.root(Fixtures.E5));

  @TempDir Path tmp;

  private CpuReservations reservations(boolean channels) throws IOException {
    Path locks = Files.createDirectories(tmp.resolve("locks"));
    return channels
        ? new CpuReservations(locks, ChannelLockFile::new, System::currentTimeMillis)
        : CpuReservations.inDirectory(locks);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void shouldFindAndCountOnceALockFileDeletedUnderTheReservation(boolean channels)
      throws IOException {
    CpuReservations r = reservations(channels);
    Reservation held = r.tryReserve(1).orElseThrow();
    assertThat(held.verify()).isEqualTo(ReservationStatus.RESERVED);
    assertThat(r.verifyHeld()).isEqualTo(CpuSet.empty());

    Files.delete(held.lockFile()); // as OpenHFT's release does

    assertThat(held.verify()).isEqualTo(ReservationStatus.LOST);
    assertThat(held.isLost()).isTrue();
    assertThat(r.verifyHeld()).isEqualTo(CpuSet.of(1));
    assertThat(held.verify()).isEqualTo(ReservationStatus.LOST);
    assertThat(r.lostCount()).isEqualTo(1);
    assertThat(held).hasToString("Reservation[cpu 1, " + held.lockFile() + ", lost]");
    held.close();
    assertThat(r.lostCount()).isEqualTo(1);
    assertThat(held.verify()).isEqualTo(ReservationStatus.LOST);

    try (Reservation again = r.tryReserve(1).orElseThrow()) { // a new file at the path
      assertThat(again.verify()).isEqualTo(ReservationStatus.RESERVED);
      assertThat(held.verify()).isEqualTo(ReservationStatus.LOST); // a stale handle checks nothing
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void shouldFindAReplacedFileWhenTheReservationIsReleased(boolean channels) throws IOException {
    CpuReservations r = reservations(channels);
    Reservation held = r.tryReserve(1).orElseThrow();
    Path own = held.lockFile().resolveSibling("cpu-1.lock.affinitykit");
    Files.delete(own);
    Files.writeString(own, "");

    held.close();

    assertThat(held.isLost()).isTrue();
    assertThat(r.lostCount()).isEqualTo(1);
    assertThat(held.verify()).isEqualTo(ReservationStatus.LOST);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void shouldSayLostInTheLeaseWhileTheThreadStaysBound(boolean channels) throws IOException {
    CpuReservations r = reservations(channels);
    RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, 23));
    AffinityKit kit = AffinityKit.create(E5, backend, r);
    CpuLease lease = kit.pinCurrentThread(1);
    assertThat(lease.verify()).isEqualTo(LeaseStatus.PINNED);

    Files.delete(r.lockFile(1));

    assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED); // no I/O until checked
    assertThat(lease.verify()).isEqualTo(LeaseStatus.LOST);
    assertThat(lease.status()).isEqualTo(LeaseStatus.LOST);
    assertThat(lease.isBound()).isTrue();
    assertThat(backend.getAffinity(0)).isEqualTo(CpuSet.of(1));
    lease.close();
    assertThat(lease.status()).isEqualTo(LeaseStatus.RELEASED);
    assertThat(backend.getAffinity(0)).isEqualTo(lease.previousMask());
    assertThat(r.lostCount()).isEqualTo(1);
  }
}
