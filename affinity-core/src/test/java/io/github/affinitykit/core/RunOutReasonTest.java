package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.reservation.LockTextTest;
import io.github.affinitykit.core.reservation.Reservation;
import io.github.affinitykit.core.testkit.Fixtures;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Why a {@link PinnedThreadFactory} left a thread unpinned: an empty pool, a pool whose every CPU
 * is held, and lock files that cannot be used read differently; a holder's garbage lock file text
 * reaches neither the reason nor the log raw. Threads are created, never started.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 60, threadMode = ThreadMode.SEPARATE_THREAD)
class RunOutReasonTest {
  private static final HostCpus E5 = HostCpus.probe(Fixtures.root(Fixtures.E5));

  @TempDir Path tmp;

  private static AffinityKit kit(CpuReservations reservations) {
    return AffinityKit.create(E5, new RecordingAffinityBackend(CpuSet.range(0, 23)), reservations);
  }

  private static String firstReason(AffinityKit kit, CpuSet pool) {
    try (PinnedThreadFactory f = kit.threadFactory("w").pool(pool).build()) {
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
        PinnedThreadFactory f = kit.threadFactory("w").pool(CpuSet.of(20, 21)).build()) {
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

  @Test
  void shouldKeepAGarbageLockFileOutOfTheReasonAndTheLog() throws Exception {
    Path locks = Files.createDirectories(tmp.resolve("locks"));
    Files.write(locks.resolve("cpu-1.lock"), LockTextTest.allBytes());
    List<LogRecord> logged = new CopyOnWriteArrayList<>();
    Logger jul = Logger.getLogger(PinnedThreadFactory.class.getName());
    Handler handler =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            logged.add(r);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    jul.addHandler(handler);
    try (ChildJvm holder =
        ChildJvm.start(
            tmp, List.of(), PosixLockMain.class, locks.resolve("cpu-1.lock").toString())) {
      assertThat(holder.awaitLine("READY")).containsExactly("true");

      String reason = firstReason(kit(CpuReservations.inDirectory(locks)), CpuSet.of(1));

      assertThat(reason)
          .contains(
              "(every CPU is held: cpu 1: "
                  + locks.resolve("cpu-1.lock")
                  + " is locked by pid "
                  + holder.pid()
                  + " (lock file text: \"\\u{0000}\\u{0001}")
          .contains("...(256 bytes)");
      assertThat(reason.codePoints()).noneMatch(Character::isISOControl);
      assertThat(reason.length()).isLessThan(400);
      assertThat(logged).hasSize(1);
      String line = new SimpleFormatter().formatMessage(logged.get(0));
      assertThat(line).startsWith(reason);
      assertThat(line.codePoints()).noneMatch(Character::isISOControl);
    } finally {
      jul.removeHandler(handler);
    }
  }
}
