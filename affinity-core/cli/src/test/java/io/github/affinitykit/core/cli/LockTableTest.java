package io.github.affinitykit.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code threads --all} on a lock directory of this test's and a /proc fixture: held (a classic
 * lock with its pid; an open file description lock found through a descriptor's fdinfo), stale and
 * unreadable; nothing is locked, written or followed.
 */
class LockTableTest {
  @TempDir Path dir;
  @TempDir Path proc;

  @Test
  void shouldNameHoldersStaleAndUnreadableFilesPerCpu() throws Exception {
    Path openhft = Files.writeString(dir.resolve("cpu-1.lock"), "4242\n2026.11.28 at 10:00:00 UTC");
    Path own = Files.writeString(dir.resolve("cpu-2.lock.affinitykit"), "77\n2026.11.28");
    Files.writeString(dir.resolve("cpu-2.lock"), "77\n2026.11.28");
    Files.writeString(dir.resolve("cpu-3.lock"), "junk\u0007");
    Files.createSymbolicLink(dir.resolve("cpu-4.lock"), openhft);
    Files.writeString(dir.resolve("cpu-x.lock"), "not a cpu");
    Files.createDirectories(proc.resolve("77/fdinfo"));
    Files.createDirectories(proc.resolve("4242"));
    Files.writeString(
        proc.resolve("locks"),
        "1: POSIX  ADVISORY  WRITE 4242 "
            + id(openhft)
            + " 0 EOF\n"
            + "2: OFDLCK ADVISORY  WRITE -1 "
            + id(own)
            + " 0 EOF\n"
            + "2: -> OFDLCK ADVISORY  WRITE -1 "
            + id(own)
            + " 0 EOF\n");
    Files.writeString(
        proc.resolve("77/fdinfo/5"),
        "pos:\t0\nflags:\t02100002\nlock:\t1: OFDLCK ADVISORY  WRITE -1 " + id(own) + " 0 EOF\n");
    Files.writeString(proc.resolve("77/fdinfo/6"), "pos:\t0\n");

    List<LockTable.Entry> entries = LockTable.read(dir, proc);

    assertThat(entries).extracting(LockTable.Entry::cpu).containsExactly(1, 2, 3, 4);
    assertThat(entries.get(0).state()).isEqualTo("HELD");
    assertThat(entries.get(0).pids()).containsExactly(4242L);
    assertThat(entries.get(0).files())
        .containsExactly("cpu-1.lock: claims pid 4242 since 2026.11.28 at 10:00:00 UTC (runs)");
    assertThat(entries.get(1).state()).isEqualTo("HELD");
    assertThat(entries.get(1).pids()).containsExactly(77L);
    assertThat(entries.get(2).state()).isEqualTo("STALE");
    assertThat(entries.get(2).files()).containsExactly("cpu-3.lock: says \"junk\\x07\"");
    assertThat(entries.get(3).state()).isEqualTo("UNREADABLE");
    assertThat(entries.get(3).files()).containsExactly("cpu-4.lock: not a regular file of its own");

    String text =
        AttachText.locks(
            dir, entries, pid -> "java", pid -> List.of(new ProcTasks.Task(78, "feed-1", "2", 2)));
    assertThat(text)
        .startsWith("lock directory " + dir + ": 4 CPUs with lock files\n")
        .containsPattern("(?m)^2 +HELD +77 +java +78 feed-1 +cpu-2.lock: claims pid 77 ")
        .containsPattern("(?m)^1 +HELD +4242 +java +- +cpu-1.lock");
    assertThat(Files.readString(openhft)).isEqualTo("4242\n2026.11.28 at 10:00:00 UTC");
  }

  @Test
  void shouldSayHeldByAnUnseenHolderWhenNoDescriptorShowsTheLock() throws Exception {
    Path own = Files.writeString(dir.resolve("cpu-0.lock.affinitykit"), "");
    Files.writeString(
        proc.resolve("locks"), "1: OFDLCK ADVISORY  WRITE -1 " + id(own) + " 0 EOF\n");

    List<LockTable.Entry> entries = LockTable.read(dir, proc);

    assertThat(entries).hasSize(1);
    assertThat(entries.get(0).pids()).isEmpty();
    assertThat(AttachText.locks(dir, entries, pid -> "?", pid -> List.of()))
        .containsPattern("(?m)^0 +HELD +not visible +- +- +cpu-0.lock.affinitykit: empty$");
    assertThat(LockTable.locks(proc)).isEqualTo(Map.of(id(own), List.of(-1L)));
  }

  private static String id(Path file) {
    return LockTable.fileId(file).orElseThrow();
  }
}
