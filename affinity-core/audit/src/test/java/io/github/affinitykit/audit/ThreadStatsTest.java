package io.github.affinitykit.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.testkit.FakeHostFiles;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ThreadStatsTest {
  private static final String STAT_REST =
      " R 1 1 1 0 -1 69238848 10 0 0 0 250 30 0 0 20 0 1 0 100 0 0 18446744073709551615"
          + " 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";

  @Test
  void shouldParseEveryCounterWhenTheThreadNameHasSpacesAndParentheses(@TempDir Path root) {
    FakeHostFiles files = new FakeHostFiles(root);
    files
        .file(
            "proc/42/stat", "42 (java) S" + STAT_REST.substring(2).replace(" 250 30 ", " 400 100 "))
        .file("proc/42/task/43/stat", "43 (a) (b) c)" + STAT_REST)
        .file("proc/42/task/43/schedstat", "123456789 98765 42")
        .file(
            "proc/42/task/43/status",
            "Name:\ta\nCpus_allowed_list:\t0-1\nvoluntary_ctxt_switches:\t7\n"
                + "nonvoluntary_ctxt_switches:\t3")
        .file("proc/42/task/43/sched", "x (43, #threads: 1)\nse.nr_migrations   :   5");

    ThreadStats s = ThreadStats.snapshot(root, 42);

    TaskSample t = s.thread(43).orElseThrow();
    assertThat(t.name()).isEqualTo("a) (b) c");
    assertThat(t.state()).isEqualTo('R');
    assertThat(t.flags()).isEqualTo(69238848L);
    assertThat(t.isUnmovable()).isTrue();
    assertThat(t.isKernelThread()).isTrue();
    assertThat(t.userNs()).isEqualTo(2_500_000_000L);
    assertThat(t.systemNs()).isEqualTo(300_000_000L);
    assertThat(t.cpuNs()).isEqualTo(2_800_000_000L);
    assertThat(t.runNs()).isEqualTo(123456789L);
    assertThat(t.waitNs()).isEqualTo(98765L);
    assertThat(t.voluntarySwitches()).isEqualTo(7);
    assertThat(t.involuntarySwitches()).isEqualTo(3);
    assertThat(t.migrations()).isEqualTo(5);
    assertThat(t.lastCpu()).isEqualTo(1);
    assertThat(t.allowed()).hasToString("0-1");
    assertThat(s.processCpuNs()).isEqualTo(5_000_000_000L);
  }

  @Test
  void shouldMarkCountersUnknownWhenTheKernelDoesNotExposeThem(@TempDir Path root) {
    new FakeHostFiles(root).file("proc/42/task/44/stat", "44 (x)" + STAT_REST);

    TaskSample t = ThreadStats.snapshot(root, 42).thread(44).orElseThrow();

    assertThat(t.runNs()).isEqualTo(-1);
    assertThat(t.migrations()).isEqualTo(-1);
    assertThat(t.voluntarySwitches()).isEqualTo(-1);
    assertThat(t.allowed().isEmpty()).isTrue();
    assertThat(ThreadStats.snapshot(root, 42).processCpuNs()).isZero();
  }

  /** This thread's Linux TID (core's {@link TaskReader}), failing the test where it is unknown. */
  static int currentTidOrFail() {
    return TaskReader.live().currentThreadId().orElseThrow();
  }
}
