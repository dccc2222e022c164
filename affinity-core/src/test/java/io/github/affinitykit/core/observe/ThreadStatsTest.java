package io.github.affinitykit.core.observe;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.FakeHostFiles;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class ThreadStatsTest {
  private static volatile long sink;

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

  @Test
  @EnabledOnOs(OS.LINUX)
  @Timeout(30)
  void shouldCountCpuAndVoluntarySwitchesOfALiveThread() throws Exception {
    AtomicInteger tid = new AtomicInteger();
    CountDownLatch measuring = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread worker =
        new Thread(
            () -> {
              try {
                tid.set(currentTidOrFail());
                measuring.await();
                for (int i = 0; i < 5; i++) {
                  // the subject, not synchronisation: a timed block is always a voluntary switch
                  java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                }
                // spin for 200 ms of this thread's CPU time, not wall time: on a loaded 2-CPU
                // box a wall-clock spin may get only a fraction of a CPU
                java.lang.management.ThreadMXBean mx =
                    java.lang.management.ManagementFactory.getThreadMXBean();
                long until = mx.getCurrentThreadCpuTime() + TimeUnit.MILLISECONDS.toNanos(200);
                long x = 0;
                while (mx.getCurrentThreadCpuTime() < until) {
                  x += System.nanoTime() & 1;
                }
                sink = x; // keeps the loop from being optimised away
                done.countDown();
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "stats-worker");
    worker.start();
    try {
      ThreadStats before = ThreadStats.snapshot();
      measuring.countDown();
      assertThat(done.await(20, TimeUnit.SECONDS)).isTrue();
      ThreadStats after = ThreadStats.snapshot();

      TaskSample delta =
          after.since(before).stream().filter(t -> t.tid() == tid.get()).findFirst().orElseThrow();
      assertThat(delta.name()).isEqualTo("stats-worker");
      assertThat(delta.runNs()).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(50));
      assertThat(delta.voluntarySwitches()).isGreaterThanOrEqualTo(5);
      assertThat(after.cpuPercentSince(before)).isGreaterThan(0);
      assertThat(after.thread(tid.get()).orElseThrow().allowed().isEmpty()).isFalse();
    } finally {
      release.countDown();
      worker.join(10_000);
    }
  }

  /** This thread's Linux TID (core's {@link TaskReader}), failing the test where it is unknown. */
  static int currentTidOrFail() {
    return TaskReader.live().currentThreadId().orElseThrow();
  }
}
