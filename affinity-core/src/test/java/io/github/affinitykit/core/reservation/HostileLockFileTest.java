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
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Lock files planted by someone else in a world-writable lock directory: each is refused and
 * reported, never followed, truncated or written through; the lease says UNPINNED with the reason.
 * Every case runs on both lock file implementations (libc through the native layer of this JDK: JNA
 * on 17-21, java.lang.foreign on 22+; and Java's FileChannel) and for both files of a CPU
 * (OpenHFT's and Affinity Kit's own).
 */
@EnabledOnOs(OS.LINUX)
@Timeout(30)
class HostileLockFileTest {
  private static final HostCpus E5 = HostCpus.probe(Fixtures.root(Fixtures.E5));
  private static final byte[] VICTIM = "precious\n".getBytes(StandardCharsets.UTF_8);

  @TempDir Path tmp;

  private CpuReservations reservations(boolean channels) throws IOException {
    Path locks = Files.createDirectories(tmp.resolve("locks-" + channels));
    return channels
        ? new CpuReservations(locks, ChannelLockFile::new, System::currentTimeMillis)
        : CpuReservations.inDirectory(locks);
  }

  /** A victim file outside the lock directory, with a known content and an old mtime. */
  private Path victim() throws IOException {
    Path victim = Files.write(tmp.resolve("victim.txt"), VICTIM);
    Files.setLastModifiedTime(victim, FileTime.from(1_000_000, TimeUnit.SECONDS));
    return victim;
  }

  private static void assertUntouched(Path victim) throws IOException {
    assertThat(Files.readAllBytes(victim)).isEqualTo(VICTIM);
    assertThat(Files.getLastModifiedTime(victim))
        .isEqualTo(FileTime.from(1_000_000, TimeUnit.SECONDS));
  }

  /**
   * Reserves cpu 1 as {@link AffinityKit#pinCurrentThread(int)} does: the lease must be UNPINNED.
   */
  private static CpuLease pin(CpuReservations reservations) {
    AffinityKit kit =
        AffinityKit.create(E5, new RecordingAffinityBackend(CpuSet.range(0, 23)), reservations);
    return kit.pinCurrentThread(1);
  }

  private static void assertRefused(CpuReservations reservations, Path planted, String problem) {
    try (CpuLease lease = pin(reservations)) {
      assertThat(lease.status()).isEqualTo(LeaseStatus.UNPINNED);
      assertThat(lease.reason())
          .isEqualTo(
              "cpu 1: "
                  + planted
                  + " "
                  + problem
                  + "; refused: never followed, truncated or written through");
    }
    assertThat(reservations.tryReserve(1).status()).isEqualTo(ReservationStatus.UNAVAILABLE);
    assertThat(reservations.reservedHere().isEmpty()).isTrue();
  }

  private static Path planted(CpuReservations reservations, String which) {
    Path compat = reservations.lockFile(1);
    return which.equals("own") ? compat.resolveSibling("cpu-1.lock.affinitykit") : compat;
  }

  @ParameterizedTest
  @ValueSource(strings = {"native,compat", "native,own", "channels,compat", "channels,own"})
  void shouldRefuseASymbolicLinkToAFileAndLeaveItsTargetAlone(String impl) throws IOException {
    CpuReservations r = reservations(impl.startsWith("channels"));
    Path victim = victim();
    Path planted = Files.createSymbolicLink(planted(r, impl.split(",")[1]), victim);

    assertRefused(r, planted, "is a symbolic link (expected: a regular file)");
    assertUntouched(victim);
    assertThat(Files.isSymbolicLink(planted)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"native,compat", "native,own", "channels,compat", "channels,own"})
  void shouldRefuseADanglingSymbolicLinkWithoutCreatingItsTarget(String impl) throws IOException {
    CpuReservations r = reservations(impl.startsWith("channels"));
    Path target = tmp.resolve("created-by-nobody");
    Path planted = Files.createSymbolicLink(planted(r, impl.split(",")[1]), target);

    assertRefused(r, planted, "is a symbolic link (expected: a regular file)");
    assertThat(target).doesNotExist();
    assertThat(Files.exists(planted, LinkOption.NOFOLLOW_LINKS)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"native,compat", "native,own", "channels,compat", "channels,own"})
  void shouldRefuseAFifo(String impl) throws Exception {
    CpuReservations r = reservations(impl.startsWith("channels"));
    Path planted = planted(r, impl.split(",")[1]);
    Process mkfifo = new ProcessBuilder("mkfifo", planted.toString()).inheritIO().start();
    assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(mkfifo.exitValue()).isZero();

    assertRefused(r, planted, "is a FIFO (expected: a regular file)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"native,compat", "native,own", "channels,compat", "channels,own"})
  void shouldRefuseADirectory(String impl) throws IOException {
    CpuReservations r = reservations(impl.startsWith("channels"));
    Path planted = Files.createDirectory(planted(r, impl.split(",")[1]));
    Files.writeString(planted.resolve("inside"), "x");

    assertRefused(r, planted, "is a directory (expected: a regular file)");
    assertThat(planted.resolve("inside")).hasContent("x");
  }

  @ParameterizedTest
  @ValueSource(strings = {"native,compat", "native,own", "channels,compat", "channels,own"})
  void shouldRefuseAHardLinkToAFileOutside(String impl) throws IOException {
    CpuReservations r = reservations(impl.startsWith("channels"));
    Path victim = victim();
    Path planted = Files.createLink(planted(r, impl.split(",")[1]), victim);

    assertRefused(r, planted, "has 2 hard links (expected: 1, a file of its own)");
    assertUntouched(victim);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void shouldWriteNothingUnlessItHoldsBothLocks(boolean channels) throws IOException {
    CpuReservations r = reservations(channels);
    Path compat = r.lockFile(1);
    Files.writeString(compat, "42\nforeign");
    try (FileChannel foreign = FileChannel.open(compat, StandardOpenOption.WRITE);
        FileLock lock = foreign.lock()) {
      assertThat(r.tryReserve(1).status()).isEqualTo(ReservationStatus.HELD_BY_THIS_JVM);
      assertThat(compat).hasContent("42\nforeign");
      assertThat(Files.size(compat.resolveSibling("cpu-1.lock.affinitykit"))).isZero();
      assertThat(lock.isValid()).isTrue();
    }
  }
}
