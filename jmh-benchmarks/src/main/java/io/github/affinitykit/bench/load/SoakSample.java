package io.github.affinitykit.bench.load;

import io.github.affinitykit.audit.TaskSample;
import io.github.affinitykit.audit.ThreadStats;
import io.github.affinitykit.core.cpu.CpuSet;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One look at the gateway process during a soak: its memory (resident, heap after the latest
 * collection, direct buffers), descriptors, threads, and where its threads run.
 *
 * <p>Thread safety: immutable.
 *
 * @param seconds since the soak's load started
 * @param rssBytes resident set ({@code VmRSS})
 * @param heapAfterGcBytes heap in use after the latest collection ({@code
 *     jvm_memory_used_after_gc_bytes}), -1 if the gateway does not publish it
 * @param directBytes the JDK's direct buffer pool plus Netty's pooled direct memory, -1 if unknown
 * @param nonHeapBytes the JVM's non-heap memory (code cache, metaspace: {@code
 *     jvm_memory_used_bytes{area="nonheap"}}), -1 if unknown
 * @param fds open file descriptors
 * @param threads the process's threads
 * @param cpus the CPUs its threads last ran on
 * @param masksChanged threads whose CPU mask differs from the one they had at the first sample
 */
record SoakSample(
    double seconds,
    long rssBytes,
    long heapAfterGcBytes,
    long directBytes,
    long nonHeapBytes,
    int fds,
    int threads,
    CpuSet cpus,
    int masksChanged) {

  /** The resources a soak checks for growth, with how each is read from a sample. */
  enum Resource {
    RSS("resident set", "MiB", 1 << 20, 4),
    HEAP_AFTER_GC("heap after GC", "MiB", 1 << 20, 4),
    DIRECT("direct memory", "MiB", 1 << 20, 4),
    NON_HEAP("non-heap (JIT, classes)", "MiB", 1 << 20, 4),
    FDS("file descriptors", "", 1, 3),
    THREADS("threads", "", 1, 3);

    private final String label;
    private final String unit;
    private final double scale;
    private final double noise;

    Resource(String label, String unit, double scale, double noise) {
      this.label = label;
      this.unit = unit;
      this.scale = scale;
      this.noise = noise;
    }

    /**
     * Returns the growth over a fitted window (in the unit) that a resource shows without leaking:
     * a survivor space filling, a pool's chunk, a few connections more at one moment.
     *
     * @return that growth, in the resource's unit
     */
    double noise() {
      return noise;
    }

    String label() {
      return label;
    }

    String unit() {
      return unit;
    }

    /** {@return the sample's value in this resource's unit, NaN where it is unknown} */
    double of(SoakSample s) {
      long v =
          switch (this) {
            case RSS -> s.rssBytes();
            case HEAP_AFTER_GC -> s.heapAfterGcBytes();
            case DIRECT -> s.directBytes();
            case NON_HEAP -> s.nonHeapBytes();
            case FDS -> s.fds();
            case THREADS -> s.threads();
          };
      return v < 0 ? Double.NaN : v / scale;
    }
  }

  /**
   * Takes a sample of process {@code pid}, whose metrics are on {@code port}; {@code firstMasks}
   * (empty at the first sample, which fills it) are the masks the threads are compared with.
   */
  static SoakSample take(long pid, int port, double seconds, Map<Integer, CpuSet> firstMasks)
      throws IOException {
    Path proc = Path.of("/proc", Long.toString(pid));
    Map<String, Long> status = status(proc.resolve("status"));
    int fds;
    try (Stream<Path> s = Files.list(proc.resolve("fd"))) {
      fds = (int) s.count();
    }
    List<TaskSample> tasks = ThreadStats.snapshot(Path.of("/"), (int) pid).threads();
    CpuSet cpus =
        CpuSet.of(tasks.stream().mapToInt(TaskSample::lastCpu).filter(c -> c >= 0).toArray());
    boolean first = firstMasks.isEmpty();
    int changed = 0;
    for (TaskSample t : tasks) {
      if (first) {
        firstMasks.put(t.tid(), t.allowed());
      } else if (firstMasks.containsKey(t.tid()) && !firstMasks.get(t.tid()).equals(t.allowed())) {
        changed++;
      }
    }
    Map<String, Double> m = metrics(port);
    long heap = Math.round(m.getOrDefault("jvm_memory_used_after_gc_bytes{area=\"heap\"}", -1.0));
    double jdkDirect = m.getOrDefault("jvm_buffer_memory_used_bytes{pool=\"direct\"}", -1.0);
    double nettyDirect =
        m.getOrDefault("affinitykit_netty_allocator_used_bytes{kind=\"direct\"}", 0.0);
    long direct = jdkDirect < 0 ? -1 : Math.round(jdkDirect + nettyDirect);
    long nonHeap = Math.round(m.getOrDefault("jvm_memory_used_bytes{area=\"nonheap\"}", -1.0));
    return new SoakSample(
        seconds,
        status.getOrDefault("VmRSS", -1L) * 1024,
        heap,
        direct,
        nonHeap,
        fds,
        status.getOrDefault("Threads", -1L).intValue(),
        cpus,
        changed);
  }

  /** The numeric fields of {@code /proc/<pid>/status} ({@code VmRSS} in kB, {@code Threads}). */
  private static Map<String, Long> status(Path file) throws IOException {
    Map<String, Long> out = new HashMap<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      int colon = line.indexOf(':');
      if (colon > 0) {
        String[] words = line.substring(colon + 1).trim().split("\\s+");
        try {
          out.put(line.substring(0, colon), Long.parseLong(words[0]));
        } catch (NumberFormatException notANumber) {
          // a field that is not a number (Name, State, ...)
        }
      }
    }
    return out;
  }

  /** The gateway's {@code /metrics}: each series (name with labels) and its value. */
  static Map<String, Double> metrics(int port) throws IOException {
    HttpURLConnection c =
        (HttpURLConnection)
            URI.create("http://127.0.0.1:" + port + "/metrics").toURL().openConnection();
    c.setConnectTimeout(5_000);
    c.setReadTimeout(5_000);
    Map<String, Double> out = new HashMap<>();
    try (InputStream in = c.getInputStream()) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        int space = line.lastIndexOf(' ');
        if (line.isEmpty() || line.startsWith("#") || space < 0) {
          continue;
        }
        try {
          out.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        } catch (NumberFormatException notANumber) {
          // a line this reader does not need
        }
      }
    } finally {
      c.disconnect();
    }
    return out;
  }
}
