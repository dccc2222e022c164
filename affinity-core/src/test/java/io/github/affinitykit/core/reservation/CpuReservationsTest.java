package io.github.affinitykit.core.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.github.affinitykit.core.ProcLocks;
import io.github.affinitykit.core.cpu.CpuSet;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** Reservations inside one JVM; every test uses its own lock directory, never {@code /tmp}. */
@EnabledOnOs(OS.LINUX)
class CpuReservationsTest {
  private static final long PID = ProcessHandle.current().pid();
  private static final String OFD_WRITE = "OFDLCK ADVISORY WRITE -1 0 EOF";

  @TempDir Path tmp;
  private CpuReservations reservations;

  @BeforeEach
  void setUp() {
    reservations = CpuReservations.inDirectory(tmp.resolve("locks"));
  }

  @Test
  void shouldLockBothFilesWholeWithOpenFileDescriptionLocksAndWriteOpenHftsText()
      throws IOException {
    ReservationResult result = reservations.tryReserve(1);
    try (Reservation r = result.orElseThrow()) {
      assertThat(result.status()).isEqualTo(ReservationStatus.RESERVED);
      assertThat(result.holderPid()).isEqualTo(PID);
      assertThat(r.cpu()).isEqualTo(1);
      assertThat(r.lockFile()).isEqualTo(reservations.lockFile(1)).hasFileName("cpu-1.lock");
      assertThat(ProcLocks.on(r.lockFile())).containsExactly(OFD_WRITE);
      Path own = r.lockFile().resolveSibling("cpu-1.lock.affinitykit");
      assertThat(ProcLocks.on(own)).containsExactly(OFD_WRITE);
      assertThat(Files.readString(own)).isEqualTo(Files.readString(r.lockFile()));
      assertThat(reservations.holder(1).orElseThrow())
          .matches(PID + "\n\\d{4}\\.\\d\\d\\.\\d\\d at \\d\\d:\\d\\d:\\d\\d \\S+");
      assertThat(reservations.reservedHere()).isEqualTo(CpuSet.of(1));
      assertThat(result.reason()).isEqualTo("reserved cpu 1 (" + r.lockFile() + ")");
    }
    assertThat(ProcLocks.on(reservations.lockFile(1))).isEmpty();
    assertThat(reservations.lockFile(1)).exists(); // never deleted
    assertThat(reservations.reservedHere()).isEqualTo(CpuSet.empty());
  }

  @Test
  void shouldRefuseASecondReservationInThisJvmWithoutOpeningTheFileAgain() throws IOException {
    try (Reservation r = reservations.tryReserve(1).orElseThrow()) {
      ReservationResult again = CpuReservations.inDirectory(tmp.resolve("locks")).tryReserve(1);
      assertThat(again.status()).isEqualTo(ReservationStatus.HELD_BY_THIS_JVM);
      assertThat(again.reservation()).isEmpty();
      assertThat(again.holderPid()).isEqualTo(PID);
      assertThat(again.reason()).contains("cpu 1: already reserved by this JVM");
      assertThat(reservations.holder(1)).isPresent();
      assertThat(ProcLocks.descriptorsOf(r.lockFile())).isEqualTo(1);
      assertThat(ProcLocks.on(r.lockFile())).containsExactly(OFD_WRITE);
    }
  }

  @Test
  @Timeout(30)
  void shouldReleaseFromAnyThreadOnceAndLetTheCpuBeReservedAgain() throws Exception {
    Reservation r = reservations.tryReserve(0).orElseThrow();
    CompletableFuture<Void> closed = CompletableFuture.runAsync(r::close);
    closed.get(10, TimeUnit.SECONDS);
    assertThat(r.isHeld()).isFalse();
    assertThat(r.toString()).endsWith(", closed]");
    r.close();
    assertThat(ProcLocks.on(r.lockFile())).isEmpty();
    try (Reservation again = reservations.tryReserve(0).orElseThrow()) {
      r.close(); // a stale handle must not release the new reservation
      assertThat(again.isHeld()).isTrue();
      assertThat(ProcLocks.on(again.lockFile())).hasSize(1);
    }
  }

  @Test
  void shouldReserveTheFirstFreeCandidateAndSayWhyNoneIsFree() {
    try (Reservation zero = reservations.tryReserve(0).orElseThrow();
        Reservation one = reservations.reserveFirstFree(CpuSet.of(0, 1)).orElseThrow()) {
      assertThat(one.cpu()).isEqualTo(1);
      ReservationResult none = reservations.reserveFirstFree(CpuSet.of(0, 1));
      assertThat(none.status()).isEqualTo(ReservationStatus.NONE_FREE);
      assertThat(none.cpu()).isEqualTo(-1);
      assertThat(none.reason())
          .startsWith("no free cpu among [0-1]: cpu 0: already reserved by this JVM")
          .contains("; cpu 1: already reserved by this JVM");
      assertThat(none).hasToString("NONE_FREE: " + none.reason());
      assertThatThrownBy(none::orElseThrow)
          .isInstanceOf(IllegalStateException.class)
          .hasMessage(none.reason());
      assertThat(zero.isHeld()).isTrue();
    }
    assertThat(reservations.reserveFirstFree(CpuSet.empty()).reason())
        .isEqualTo("no free cpu among []: no candidates");
  }

  @Test
  void shouldReportADirectoryThatCannotBeCreatedWithoutThrowing() throws IOException {
    Path file = Files.writeString(tmp.resolve("plain-file"), "not a directory");
    CpuReservations nowhere = CpuReservations.inDirectory(file.resolve("locks"));
    ReservationResult result = nowhere.tryReserve(1);
    assertThat(result.status()).isEqualTo(ReservationStatus.UNAVAILABLE);
    assertThat(result.holderPid()).isEqualTo(-1);
    assertThat(result.reason())
        .startsWith("cpu 1: cannot create directory " + file.resolve("locks") + ": ");
    assertThat(nowhere.reserveFirstFree(CpuSet.of(1)).status())
        .isEqualTo(ReservationStatus.NONE_FREE);
    assertThat(nowhere.holder(1)).isEmpty();
  }

  @Test
  void shouldReportALockFileThatCannotBeOpenedForWriting() throws IOException {
    Files.createDirectories(reservations.lockFile(1)); // a directory where the file should be
    ReservationResult result = reservations.tryReserve(1);
    assertThat(result.status()).isEqualTo(ReservationStatus.UNAVAILABLE);
    assertThat(result.reason())
        .isEqualTo(
            "cpu 1: "
                + reservations.lockFile(1)
                + " is a directory (expected: a regular file);"
                + " refused: never followed, truncated or written through");
    assertThat(reservations.holder(1)).isEmpty();
  }

  @Test
  void shouldReportAReadOnlyDirectoryWhenPermissionsApply() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("read-only"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      assumeFalse(Files.isWritable(dir), "running as root: permissions do not apply");
      ReservationResult result = CpuReservations.inDirectory(dir).tryReserve(1);
      assertThat(result.status()).isEqualTo(ReservationStatus.UNAVAILABLE);
      assertThat(result.reason()).contains("AccessDeniedException");
    } finally {
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  @Test
  void shouldLeaveAForeignLockOfThisJvmAloneAndRetakeTheFileOnceItIsReplaced() throws IOException {
    Path path = reservations.lockFile(1);
    Files.createDirectories(path.getParent());
    FileChannel foreign =
        FileChannel.open(
            path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    FileLock foreignLock = foreign.tryLock();
    foreign.write(
        java.nio.ByteBuffer.wrap("42\nforeign".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    ReservationResult refused = reservations.tryReserve(1);
    assertThat(refused.status()).isEqualTo(ReservationStatus.HELD_BY_THIS_JVM);
    assertThat(refused.reason()).contains("locked by another user of the file in this JVM");
    assertThat(reservations.holder(1)).contains("42\nforeign"); // read through the parked fd
    assertThat(ProcLocks.on(path)).containsExactly("POSIX ADVISORY WRITE " + PID + " 0 EOF");
    assertThat(ProcLocks.on(path.resolveSibling("cpu-1.lock.affinitykit"))).isEmpty();
    // The foreign holder lets go as OpenHFT does: delete while locked, then close; a new file
    // appears at the path. Our parked channel now points to the deleted file.
    Files.delete(path);
    Files.writeString(path, "");
    foreignLock.release();
    foreign.close();
    try (Reservation r = reservations.tryReserve(1).orElseThrow()) {
      assertThat(ProcLocks.on(r.lockFile())).containsExactly(OFD_WRITE);
      assertThat(ProcLocks.descriptorsOf(path)).isEqualTo(1);
      assertThat(Files.readString(path)).startsWith(PID + "\n"); // opens and closes the file...
      assertThat(ProcLocks.on(r.lockFile())).containsExactly(OFD_WRITE); // ...our lock survives
    }
  }

  @Test
  void shouldShareOneInstancePerDirectoryAndRejectBadCpus() throws IOException {
    Path link = Files.createSymbolicLink(tmp.resolve("link"), tmp);
    assertThat(CpuReservations.inDirectory(link.resolve("locks"))).isSameAs(reservations);
    assertThat(CpuReservations.inDirectory(tmp.resolve("x/../locks"))).isSameAs(reservations);
    assertThat(CpuReservations.inTempDirectory().directory())
        .isEqualTo(Path.of(System.getProperty("java.io.tmpdir")).toRealPath());
    assertThat(reservations.toString()).startsWith("CpuReservations[").endsWith(", held ]");
    assertThatThrownBy(() -> reservations.tryReserve(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cpu: -1 (expected: >= 0 and < 1048576)");
    assertThatThrownBy(() -> reservations.reserveFirstFree(null)).hasMessage("candidates");
    assertThatThrownBy(() -> CpuReservations.inDirectory(null)).hasMessage("directory");
  }
}
