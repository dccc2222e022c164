package io.github.affinitykit.core.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.ChildJvm;
import io.github.affinitykit.core.ProcLocks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reservations between real JVM processes: ours against ours, ours against plain OpenHFT {@code
 * AffinityLock}, and a holder killed with SIGKILL. Each test has its own lock directory (children
 * get it as {@code java.io.tmpdir}, OpenHFT's lock directory), never {@code /tmp} itself.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 120, threadMode = ThreadMode.SEPARATE_THREAD)
class CrossProcessReservationsIT {
  private static final long PID = ProcessHandle.current().pid();

  @TempDir Path tmp;
  private Path locks;
  private CpuReservations reservations;
  private final List<ChildJvm> children = new ArrayList<>();

  @BeforeEach
  void setUp() throws IOException {
    locks = Files.createDirectories(tmp.resolve("locks"));
    reservations = CpuReservations.inDirectory(locks);
  }

  @AfterEach
  void killChildren() {
    synchronized (children) {
      children.forEach(ChildJvm::close);
    }
  }

  private ChildJvm ours(int cpu) throws IOException {
    return track(
        ChildJvm.start(tmp, List.of(), ReservationHolderMain.class, locks.toString(), "" + cpu));
  }

  private ChildJvm openHft(int cpu) throws IOException {
    List<String> jvmArgs = List.of("-Djava.io.tmpdir=" + locks);
    return track(ChildJvm.start(tmp, jvmArgs, OpenHftLockMain.class, "" + cpu));
  }

  private ChildJvm track(ChildJvm child) {
    synchronized (children) {
      children.add(child);
    }
    return child;
  }

  @Test
  void shouldNeverLetTwoProcessesHoldTheSameCpu() throws Exception {
    ChildJvm child = ours(1);
    assertThat(child.awaitLine("READY")).containsExactly("RESERVED", "" + child.pid());

    ReservationResult refused = reservations.tryReserve(1);
    assertThat(refused.status()).isEqualTo(ReservationStatus.HELD_BY_OTHER_PROCESS);
    assertThat(refused.holderPid()).isEqualTo(-1); // an open file description lock has no pid
    assertThat(refused.reason())
        .startsWith(
            "cpu 1: "
                + locks.resolve("cpu-1.lock.affinitykit")
                + " is locked by another process (the file claims pid "
                + child.pid()
                + " since ");
    assertThat(reservations.holder(1).orElseThrow()).startsWith(child.pid() + "\n");

    assertThat(child.exit()).isZero();
    try (Reservation r = reservations.tryReserve(1).orElseThrow()) {
      ChildJvm second = ours(1);
      assertThat(second.awaitLine("READY")).containsExactly("HELD_BY_OTHER_PROCESS", "-1");
      assertThat(second.exit()).isZero();
      assertThat(r.isHeld()).isTrue();
    }
  }

  @Test
  void shouldExcludeOpenHftAffinityLockInBothDirections() throws Exception {
    ChildJvm hft = openHft(1);
    assertThat(hft.awaitLine("READY")).containsExactly("1");
    Path file = locks.resolve("cpu-1.lock");
    assertThat(ProcLocks.on(file)).containsExactly("POSIX ADVISORY WRITE " + hft.pid() + " 0 EOF");
    assertThat(Files.readString(file)).startsWith(hft.pid() + "\n");

    ReservationResult refused = reservations.tryReserve(1);
    assertThat(refused.status()).isEqualTo(ReservationStatus.HELD_BY_OTHER_PROCESS);
    assertThat(refused.holderPid()).isEqualTo(hft.pid());
    assertThat(hft.exit()).isZero();

    try (Reservation r = reservations.tryReserve(1).orElseThrow()) {
      ChildJvm refusedHft = openHft(1);
      assertThat(refusedHft.awaitLine("READY")).as(refusedHft.stderr()).containsExactly("-1");
      assertThat(refusedHft.exit()).isZero();
      assertThat(ProcLocks.on(r.lockFile())).containsExactly("OFDLCK ADVISORY WRITE -1 0 EOF");
    }

    ChildJvm after = openHft(1);
    assertThat(after.awaitLine("READY")).containsExactly("1");
    assertThat(after.exit()).isZero();
  }

  @Test
  void shouldExcludeAProcessWithoutJnaThatFallsBackToFileChannels() throws Exception {
    // JNA unloadable, and on JDK 22+ the layer forced to JNA too (else java.lang.foreign locks)
    List<String> noJna =
        List.of("-Djna.nosys=true", "-Djna.noclasspath=true", "-Daffinitykit.native=jna");
    ChildJvm child =
        track(ChildJvm.start(tmp, noJna, ReservationHolderMain.class, locks.toString(), "1"));
    assertThat(child.awaitLine("READY")).containsExactly("RESERVED", "" + child.pid());
    Path own = locks.resolve("cpu-1.lock.affinitykit");
    assertThat(ProcLocks.on(own)).containsExactly("POSIX ADVISORY WRITE " + child.pid() + " 0 EOF");

    ReservationResult refused = reservations.tryReserve(1);
    assertThat(refused.status()).isEqualTo(ReservationStatus.HELD_BY_OTHER_PROCESS);
    assertThat(refused.holderPid()).isEqualTo(child.pid());
    assertThat(child.exit()).isZero();
    try (Reservation r = reservations.tryReserve(1).orElseThrow()) {
      assertThat(ProcLocks.on(own)).containsExactly("OFDLCK ADVISORY WRITE -1 0 EOF");
      assertThat(r.isHeld()).isTrue();
    }
  }

  @Test
  void shouldKeepAnotherAffinityKitProcessOffWhenOpenHftDeletesTheFileUnderOurLock()
      throws Exception {
    try (Reservation r = reservations.tryReserve(1).orElseThrow()) {
      Files.delete(r.lockFile()); // what a stale OpenHFT holder's release does

      ChildJvm child = ours(1);
      assertThat(child.awaitLine("READY")).containsExactly("HELD_BY_OTHER_PROCESS", "-1");
      assertThat(child.exit()).isZero();
      assertThat(r.verify()).isEqualTo(ReservationStatus.LOST);
    }
    assertThat(reservations.lostCount()).isEqualTo(1);
  }

  @Test
  void shouldFreeTheCpuWhenItsHolderIsKilled() throws Exception {
    ChildJvm child = ours(1);
    assertThat(child.awaitLine("READY")).containsExactly("RESERVED", "" + child.pid());
    assertThat(reservations.tryReserve(1).status())
        .isEqualTo(ReservationStatus.HELD_BY_OTHER_PROCESS);

    child.kill(); // SIGKILL: no release code runs, the kernel drops the lock

    try (Reservation r = reservations.tryReserve(1).orElseThrow()) {
      assertThat(reservations.holder(1).orElseThrow()).startsWith(PID + "\n");
      assertThat(r.isHeld()).isTrue();
    }
  }
}
