package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.reservation.LockTextTest;
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
 * Why a {@link PinnedThreadFactory} left a thread unpinned when another JVM holds the CPU's lock
 * file and wrote garbage into it: the holder's text reaches neither the reason nor the log raw.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 60, threadMode = ThreadMode.SEPARATE_THREAD)
class RunOutReasonIT {
  @TempDir Path tmp;

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

      String reason =
          RunOutReasonTest.firstReason(
              RunOutReasonTest.kit(CpuReservations.inDirectory(locks)), CpuSet.of(1));

      assertThat(reason)
          .contains(
              "(every CPU is held: cpu 1: "
                  + locks.resolve("cpu-1.lock")
                  + " is locked by pid "
                  + holder.pid()
                  + " (the file says \"\\u{0000}\\u{0001}")
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
