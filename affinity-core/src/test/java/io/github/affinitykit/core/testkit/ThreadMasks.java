package io.github.affinitykit.core.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.SysFs;
import io.github.affinitykit.core.internal.ThreadFiles;
import java.nio.file.Path;
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
    int pid = (int) ProcessHandle.current().pid();
    ThreadFiles files = ThreadFiles.live();
    for (String name : new SysFs(Path.of("/")).list("/proc/" + pid + "/task")) {
      int tid = ThreadFiles.id(name);
      if (tid >= 0) {
        m.put(tid, files.status(pid, tid).allowedOrEmpty()); // empty: it ended meanwhile
      }
    }
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
