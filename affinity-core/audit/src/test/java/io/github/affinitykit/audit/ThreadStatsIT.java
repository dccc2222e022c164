package io.github.affinitykit.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** {@link ThreadStats} of a live thread of this JVM: its CPU time and context switches. */
class ThreadStatsIT {
  private static volatile long sink;

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
                tid.set(ThreadStatsTest.currentTidOrFail());
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
}
