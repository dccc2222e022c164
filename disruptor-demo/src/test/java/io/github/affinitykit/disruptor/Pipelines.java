package io.github.affinitykit.disruptor;

import com.lmax.disruptor.RingBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** Wires 1..n checking stages as a pipeline and publishes numbered events. */
final class Pipelines {
  private Pipelines() {}

  static List<CheckingHandler> wire(
      PinnedDisruptor<TestEvent> pd, int stages, long total, Supplier<String> mask) {
    List<CheckingHandler> hs = new ArrayList<>();
    for (int i = 0; i < stages; i++) {
      hs.add(new CheckingHandler(i, total, mask));
    }
    var group = pd.disruptor().handleEventsWith(hs.get(0));
    for (int i = 1; i < stages; i++) {
      group = group.then(hs.get(i));
    }
    return hs;
  }

  static void publish(RingBuffer<TestEvent> ring, long total) {
    for (long i = 0; i < total; i++) {
      long seq = ring.next();
      TestEvent e = ring.get(seq);
      e.value = i;
      e.stage = -1;
      ring.publish(seq);
    }
  }

  /** The calling thread's Cpus_allowed_list, read from the kernel, not from the backend. */
  static String allowedList() {
    try {
      for (String line :
          java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/thread-self/status"))) {
        if (line.startsWith("Cpus_allowed_list:")) {
          return line.split(":", 2)[1].trim();
        }
      }
      return "?";
    } catch (java.io.IOException e) {
      return "? " + e;
    }
  }
}
