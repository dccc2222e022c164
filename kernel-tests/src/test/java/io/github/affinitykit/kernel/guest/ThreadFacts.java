package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.affinitykit.core.AffinityKit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the kernel says about the calling thread: its TID, {@code Cpus_allowed_list} from {@code
 * /proc/thread-self/status} and the CPU it runs on ({@code sched_getcpu}).
 *
 * <p>Thread safety: stateless; reads the calling thread.
 */
final class ThreadFacts {
  private ThreadFacts() {}

  /** Puts the calling thread's facts into {@code into} and returns it. */
  static ObjectNode of(AffinityKit kit, ObjectNode into) throws IOException {
    return into.put("thread", Thread.currentThread().getName())
        .put("tid", kit.backend().currentThreadId())
        .put("schedCpu", kit.backend().currentCpu())
        .put("allowed", allowed(Path.of("/proc/thread-self/status")));
  }

  /** The {@code Cpus_allowed_list} of a task's {@code status} file. */
  static String allowed(Path status) throws IOException {
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("Cpus_allowed_list:")) {
        return line.substring(line.indexOf(':') + 1).trim();
      }
    }
    return "?";
  }
}
