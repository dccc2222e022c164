package io.github.affinitykit.reactor;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.netty.LoopAssignment;
import io.github.affinitykit.netty.PinnedIoEventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The kernel's word on where a thread may run: {@code Cpus_allowed_list} of {@code
 * /proc/thread-self/status}, read on the thread itself; and the shared kit the tests pin with (its
 * lock directory is the build's, {@code -Daffinitykit.lock.dir}).
 *
 * <p>Thread safety: stateless.
 */
final class LoopMasks {
  private LoopMasks() {}

  /** The JVM's shared kit, its lock directory created first. */
  static AffinityKit kit() throws IOException {
    Files.createDirectories(
        Path.of(System.getProperty("affinitykit.lock.dir", "target/cpu-locks")));
    return AffinityKit.shared();
  }

  /** The calling thread's allowed CPUs, as the kernel lists them ({@code 0-1}, {@code 3}). */
  static String here() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
        if (line.startsWith("Cpus_allowed_list:")) {
          return line.substring(line.indexOf(':') + 1).strip();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalStateException("no Cpus_allowed_list in /proc/thread-self/status");
  }

  /** Each loop's mask, read on the loop itself (it starts if it had not), in loop order. */
  static List<String> of(PinnedIoEventLoopGroup group) throws Exception {
    List<String> masks = new ArrayList<>();
    for (EventExecutor loop : group) {
      masks.add(loop.submit(LoopMasks::here).get(20, TimeUnit.SECONDS));
    }
    return masks;
  }

  /**
   * Asserts that every loop of {@code group} runs where its assignment says: a PINNED loop on
   * exactly its CPU; and that the workers, at least, are pinned.
   */
  static void assertOnTheirCpus(PinnedIoEventLoopGroup group) throws Exception {
    List<String> masks = of(group);
    List<LoopAssignment> loops = group.assignments();
    assertThat(masks).hasSameSizeAs(loops);
    for (int i = 0; i < loops.size(); i++) {
      LoopAssignment a = loops.get(i);
      if (a.status() == LeaseStatus.PINNED) {
        assertThat(masks.get(i)).as("%s's mask", a).isEqualTo(String.valueOf(a.cpu()));
      } else {
        assertThat(a.group()).as("%s: only the boss may run unpinned", a).isEqualTo("boss");
      }
    }
  }
}
