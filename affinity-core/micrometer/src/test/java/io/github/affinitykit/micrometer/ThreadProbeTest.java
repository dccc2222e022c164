package io.github.affinitykit.micrometer;

import static io.github.affinitykit.micrometer.TaskFiles.PID;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.audit.TaskReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ThreadProbe}: one read per scrape, and counters that never go back. */
class ThreadProbeTest {
  @TempDir Path root;
  private final AtomicLong clock = new AtomicLong();

  private ThreadProbe probe(int tid) {
    return ThreadProbe.of(TaskReader.at(root), PID, tid, clock::get).orElseThrow();
  }

  @Test
  void shouldServeOneReadToEveryMeterUntilItIsOlderThanTheMaximumAge() {
    TaskFiles files = new TaskFiles(root).task(7, 100, 20, 5, 1);
    ThreadProbe p = probe(7);
    files.task(7, 300, 20, 9, 2);

    assertThat(ThreadProbe.cpuSeconds(p)).isEqualTo(1.2);
    clock.addAndGet(ThreadProbe.MAX_AGE_NS - 1);
    assertThat(ThreadProbe.voluntarySwitches(p)).isEqualTo(5);
    clock.addAndGet(1);
    assertThat(ThreadProbe.cpuSeconds(p)).isEqualTo(3.2);
    assertThat(ThreadProbe.voluntarySwitches(p)).isEqualTo(9);
    assertThat(ThreadProbe.involuntarySwitches(p)).isEqualTo(2);
  }

  @Test
  void shouldKeepTheLastValuesWhenTheTaskIsGoneOrItsCountersWentBack() throws Exception {
    TaskFiles files = new TaskFiles(root).task(7, 100, 20, 5, 1);
    ThreadProbe p = probe(7);
    files.task(7, 50, 0, 1, 0); // another thread with the same id
    clock.addAndGet(ThreadProbe.MAX_AGE_NS);

    assertThat(ThreadProbe.cpuSeconds(p)).isEqualTo(1.2);
    Files.delete(root.resolve("proc/" + PID + "/task/7/stat"));
    clock.addAndGet(ThreadProbe.MAX_AGE_NS);
    assertThat(ThreadProbe.involuntarySwitches(p)).isEqualTo(1);
  }

  @Test
  void shouldHaveNoProbeWhenTheTaskCannotBeRead() {
    assertThat(ThreadProbe.of(TaskReader.at(root), PID, 7)).isEmpty();
  }
}
