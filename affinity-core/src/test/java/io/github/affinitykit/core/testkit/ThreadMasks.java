package io.github.affinitykit.core.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.observe.ThreadStats;
import java.util.HashMap;
import java.util.Map;

/**
 * Every thread's CPU mask in this JVM, from {@code /proc/self/task}: what a test that confines the
 * JVM compares before and after.
 *
 * <p>Thread safety: stateless.
 */
public final class ThreadMasks {
  private ThreadMasks() {}

  /** {@return each live thread's allowed CPUs now, by kernel thread id} */
  public static Map<Integer, CpuSet> now() {
    Map<Integer, CpuSet> m = new HashMap<>();
    ThreadStats.snapshot().threads().forEach(t -> m.put(t.tid(), t.allowed()));
    return m;
  }

  /**
   * Asserts that every thread of {@code before} still alive has the mask it had then.
   *
   * @param before a {@link #now()} taken earlier
   */
  public static void assertUnchangedSince(Map<Integer, CpuSet> before) {
    Map<Integer, CpuSet> after = now();
    before.forEach(
        (tid, mask) -> {
          if (after.containsKey(tid)) {
            assertThat(after.get(tid)).as("thread %d's mask", tid).isEqualTo(mask);
          }
        });
  }
}
