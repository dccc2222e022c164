package io.github.affinitykit.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.testkit.FakeHostFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TaskReaderTest {
  /** Fields 4..52 of a real task stat line (this machine, kernel 6.x): 250 ticks user, 30 sys. */
  private static final String REST =
      " 1 1 1 0 -1 4194624 10 0 0 0 250 30 0 0 20 0 1 0 100 0 0 18446744073709551615"
          + " 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0";

  @Test
  void shouldReadTheCallingThreadThroughTheThreadSelfLinkWhenTheTreeHasOne(@TempDir Path root)
      throws IOException {
    new FakeHostFiles(root)
        .file("proc/42/task/43/stat", "43 (worker-1) S" + REST)
        .file("proc/42/task/43/schedstat", "5000 700 3")
        .file("proc/42/task/43/status", "voluntary_ctxt_switches:\t9\nCpus_allowed_list:\t1");
    Files.createSymbolicLink(root.resolve("proc/thread-self"), Path.of("42/task/43"));
    TaskReader reader = TaskReader.at(root);

    TaskSample t = reader.readCurrentThread().orElseThrow();

    assertThat(reader.currentThreadId()).hasValue(43);
    assertThat(t.pid()).isEqualTo(42);
    assertThat(t.tid()).isEqualTo(43);
    assertThat(t.name()).isEqualTo("worker-1");
    assertThat(t.state()).isEqualTo('S');
    assertThat(t.userNs()).isEqualTo(250 * TaskReader.NS_PER_TICK);
    assertThat(t.runNs()).isEqualTo(5000);
    assertThat(t.waitNs()).isEqualTo(700);
    assertThat(t.voluntarySwitches()).isEqualTo(9);
    assertThat(t.involuntarySwitches()).isEqualTo(-1);
    assertThat(t.lastCpu()).isEqualTo(1);
    assertThat(t.allowed()).hasToString("1");
  }

  @Test
  void shouldReportNoCurrentThreadWhenThreadSelfIsAbsentOrNotATaskLink(@TempDir Path root)
      throws IOException {
    TaskReader reader = TaskReader.at(root);
    assertThat(reader.currentThreadId()).isEmpty();
    assertThat(reader.readCurrentThread()).isEmpty();

    Files.createDirectories(root.resolve("proc"));
    Files.createSymbolicLink(root.resolve("proc/thread-self"), Path.of("42/x/y"));
    assertThat(reader.currentThreadId()).isEmpty();
    assertThat(reader.readCurrentThread()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "43 (x)",
        "43 x) S" + REST,
        "43 (x)S" + REST,
        "43 (x) S 1 2",
        "43 (x) SS" + REST,
        "43 (x) S 1 1 1 0 -1 -5 10 0 0 0 250 30",
        "43 (x) S 1 1 1 0 -1 4194624 10 0 0 0 2x0 30 0 0 20 0 1 0 100 0 0 1 0 0 0 0 0 0 0 0 0 0 0"
            + " 0 17 1 0",
        "43 (x) S 1 1 1 0 -1 4194624 10 0 0 0 999999999999999999 30 0 0 20 0 1 0 100 0 0 1 0 0"
            + " 0 0 0 0 0 0 0 0 0 0 17 1 0",
        "43 (x) S 1 1 1 0 -1 4194624 10 0 0 0 250 30 0 0 20 0 1 0 100 0 0 1 0 0 0 0 0 0 0 0 0 0"
            + " 0 0 17 99999999999 0",
        "43 (x) S 1 1 1 0 -1 4194624 10 0 0 0 250 30 0 0 20 0 1 0 100 0 0 1 0 0 0 0 0 0 0 0 0 0"
            + " 0 0 17 -1 0",
      })
  void shouldSkipTheTaskWhenItsStatLineIsGarbled(String stat, @TempDir Path root) {
    new FakeHostFiles(root).file("proc/42/task/43/stat", stat).file("proc/42/stat", stat);
    TaskReader reader = TaskReader.at(root);

    assertThat(reader.read(42, 43)).isEmpty();
    assertThat(reader.processCpuNs(42)).isEmpty();
    assertThat(ThreadStats.snapshot(root, 42).threads()).isEmpty();
    assertThat(ThreadStats.snapshot(root, 42).processCpuNs()).isZero();
  }

  @Test
  void shouldReadCountersAsUnknownWhenTheOtherFilesAreGarbled(@TempDir Path root) {
    new FakeHostFiles(root)
        .file("proc/42/task/43/stat", "43 (x) R" + REST)
        .file("proc/42/task/43/schedstat", "12e3 -4 1")
        .file(
            "proc/42/task/43/status",
            "voluntary_ctxt_switches:\tmany\nnonvoluntary_ctxt_switches:\t1234567890123456789\n"
                + "Cpus_allowed_list:\t3-1")
        .file("proc/42/task/43/sched", "se.nr_migrations : lots");

    TaskSample t = TaskReader.at(root).read(42, 43).orElseThrow();

    assertThat(t.runNs()).isEqualTo(-1);
    assertThat(t.waitNs()).isEqualTo(-1);
    assertThat(t.voluntarySwitches()).isEqualTo(-1);
    assertThat(t.involuntarySwitches()).isEqualTo(-1);
    assertThat(t.migrations()).isEqualTo(-1);
    assertThat(t.allowed().isEmpty()).isTrue();
    assertThat(t.userNs()).isEqualTo(250 * TaskReader.NS_PER_TICK);
  }

  @Test
  void shouldListOnlyNumericIdsThatFitAnIntWhenProcHoldsOtherEntries(@TempDir Path root) {
    new FakeHostFiles(root)
        .file("proc/7/task/9/stat", "x")
        .file("proc/7/task/8/stat", "x")
        .file("proc/7/task/self/stat", "x")
        .file("proc/12/stat", "x")
        .file("proc/99999999999/stat", "x")
        .file("proc/self/stat", "x")
        .file("proc/stat", "cpu 1 2 3 4");
    TaskReader reader = TaskReader.at(root);

    assertThat(reader.processIds()).containsExactly(7, 12);
    assertThat(reader.threadIds(7)).containsExactly(8, 9);
    assertThat(reader.threadIds(12)).isEmpty();
    assertThat(reader.threadIds(13)).isEmpty();
  }

  @Test
  void shouldReadOnlyTheStatFileWhenAskedForTheStatAlone(@TempDir Path root) {
    new FakeHostFiles(root)
        .file("proc/2/task/2/stat", "2 (kthreadd) S" + REST.replace(" 4194624 ", " 2129984 "))
        .file("proc/2/task/2/schedstat", "5000 700 3")
        .file("proc/2/task/2/status", "voluntary_ctxt_switches:\t9\nCpus_allowed_list:\t0-1");
    TaskReader reader = TaskReader.at(root);

    TaskSample t = reader.readStat(2, 2).orElseThrow();

    assertThat(t.isKernelThread()).isTrue();
    assertThat(t.cpuNs()).isEqualTo(280 * TaskReader.NS_PER_TICK);
    assertThat(t.lastCpu()).isEqualTo(1);
    assertThat(t.runNs()).isEqualTo(-1);
    assertThat(t.voluntarySwitches()).isEqualTo(-1);
    assertThat(t.migrations()).isEqualTo(-1);
    assertThat(t.allowed().isEmpty()).isTrue();
    assertThat(reader.read(2, 2).orElseThrow().runNs()).isEqualTo(5000);
    assertThat(reader.readStat(2, 3)).isEmpty();
  }

  @Test
  void shouldSumUserAndSystemTimeWhenReadingAProcessStat(@TempDir Path root) {
    new FakeHostFiles(root).file("proc/42/stat", "42 (java) S" + REST);

    assertThat(TaskReader.at(root).processCpuNs(42)).hasValue(280 * TaskReader.NS_PER_TICK);
    assertThat(TaskReader.at(root).processCpuNs(43)).isEmpty();
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void shouldReadTheCallingThreadOfThisJvmWhenLive() {
    TaskReader reader = TaskReader.live();
    AffinityBackend backend = AffinityBackend.detect();

    int tid = reader.currentThreadId().orElseThrow();
    TaskSample self = reader.readCurrentThread().orElseThrow();

    assertThat(self.tid()).isEqualTo(tid);
    assertThat(self.pid()).isEqualTo((int) ProcessHandle.current().pid());
    assertThat(reader.processIds()).contains(self.pid());
    assertThat(reader.threadIds(self.pid())).contains(tid);
    assertThat(self.state()).isEqualTo('R');
    assertThat(self.allowed().isEmpty()).isFalse();
    assertThat(reader.processCpuNs(self.pid()).orElseThrow()).isPositive();
    assumeThat(backend.isSupported()).isTrue();
    assertThat(tid).isEqualTo(backend.currentThreadId());
  }
}
