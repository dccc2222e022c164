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
    SysFs fs = new SysFs(Path.of("/"));
    for (String name : fs.list("/proc/" + pid + "/task")) {
      int tid = ThreadFiles.id(name);
      if (tid >= 0) {
        m.put(tid, allowed(fs, "/proc/" + pid + "/task/" + tid + "/status"));
      }
    }
    return m;
  }

  /** A status file's {@code Cpus_allowed_list}; empty if the thread ended meanwhile. */
  private static CpuSet allowed(SysFs fs, String status) {
    for (String line : fs.lines(status)) {
      if (line.startsWith("Cpus_allowed_list:")) {
        return CpuSet.parse(line.substring("Cpus_allowed_list:".length()).trim());
      }
    }
    return CpuSet.empty();
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
