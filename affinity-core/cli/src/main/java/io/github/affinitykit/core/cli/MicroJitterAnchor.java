package io.github.affinitykit.core.cli;

import io.github.affinitykit.core.cpu.CpuSet;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The jitter experiment's anchor: OpenHFT's {@code MicroJitterSampler} run as it is built, in a JVM
 * of its own per CPU ({@code java -cp <this class path> -Dcpu=N
 * net.openhft.affinity.MicroJitterSampler}, its lock files in the kit's lock directory), all CPUs
 * at once, until each has printed {@code rounds} blocks after its warm-up; then the JVMs are ended
 * and their last blocks converted ({@link MicroJitterOutput}). Whether its thread really ran on the
 * CPU is checked from {@code /proc/PID/task/*}{@code /status} once it has warmed up (its lock can
 * fail quietly, leaving it unpinned).
 *
 * <p>Thread safety: stateless; {@link #run} blocks for the rounds and owns the JVMs it starts.
 */
final class MicroJitterAnchor {
  /** Its main class, on this module's class path. */
  static final String MAIN = net.openhft.affinity.MicroJitterSampler.class.getName();

  /** A round as it is built: 15,000 times a 1 ms spin and a 1 ms sleep. */
  static final Duration ROUND = Duration.ofSeconds(30);

  /** The most rounds the command runs. */
  static final int MAX_ROUNDS = 10;

  private MicroJitterAnchor() {}

  /** How long the anchor runs for {@code rounds}: the warm-up round and the rounds. */
  static Duration duration(int rounds) {
    return ROUND.multipliedBy(rounds + 1L);
  }

  /**
   * How long the anchor is waited for: three times its duration and 30 s, since a round's 15,000
   * sleeps of 1 ms take longer on a busy host (its 30 s warm-up took 51 s here at a load average of
   * 10 on 2 CPUs).
   */
  static Duration patience(int rounds) {
    return duration(rounds).multipliedBy(3).plusSeconds(30);
  }

  /** How the anchor runs, in a sentence. */
  static String setup(int rounds) {
    return "OpenHFT MicroJitterSampler as it is built: a JVM of its own per CPU (-Dcpu=N,"
        + " AffinityLock), 50% duty cycle (a 1 ms spin, a 1 ms sleep), a 30 s warm-up round"
        + " discarded, then "
        + rounds
        + " round"
        + (rounds == 1 ? "" : "s")
        + " of 30 s (15 s of it sampled); counts per threshold per hour, converted";
  }

  /** Runs the anchor on {@code cpus}; refused with the reason when no JVM printed a block. */
  static ArmResult run(CpuSet cpus, int rounds, Path lockDir) {
    String setup = setup(rounds);
    if (rounds == 0) {
      return ArmResult.refused("anchor", setup, "not run: --anchor-rounds 0");
    }
    List<Child> children = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    try {
      for (int cpu : cpus.toArray()) {
        children.add(Child.start(cpu, rounds, lockDir));
      }
      long deadline = System.nanoTime() + patience(rounds).toNanos();
      for (Child c : children) {
        c.await(deadline);
      }
    } catch (IOException e) {
      notes.add(
          "anchor: " + e.getMessage() + " (expected: a JVM started from " + javaBinary() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      notes.add("anchor: interrupted (expected: its rounds run to their end)");
    } finally {
      children.forEach(Child::end);
    }
    List<ArmRow> rows = new ArrayList<>();
    for (Child c : children) {
      Optional<MicroJitterOutput.Block> block = MicroJitterOutput.lastBlock(c.lines);
      if (block.isPresent()) {
        rows.add(MicroJitterOutput.row(c.cpu, c.thread(), block.get()));
      } else {
        notes.add(
            "anchor cpu "
                + c.cpu
                + ": no count printed within "
                + patience(rounds).toSeconds()
                + " s (its last line: "
                + (c.lines.isEmpty() ? "none" : c.lines.get(c.lines.size() - 1))
                + ")");
      }
    }
    if (rows.isEmpty()) {
      return ArmResult.refused("anchor", setup, "no result: " + String.join("; ", notes));
    }
    return ArmResult.ran("anchor", setup, rows, notes);
  }

  static Path javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  /** One JVM of the anchor and what it printed. */
  private static final class Child {
    private final int cpu;
    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final CountDownLatch blocks;
    private volatile Boolean pinned;
    private final Thread reader;

    private Child(int cpu, Process process, int rounds) {
      this.cpu = cpu;
      this.process = process;
      this.blocks = new CountDownLatch(rounds);
      this.reader = new Thread(this::read, "jitter-anchor-" + cpu);
      reader.setDaemon(true);
    }

    static Child start(int cpu, int rounds, Path lockDir) throws IOException {
      Process p =
          new ProcessBuilder(
                  javaBinary().toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  "-Dcpu=" + cpu,
                  "-Djava.io.tmpdir=" + lockDir,
                  MAIN)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      Child c = new Child(cpu, p, rounds);
      c.reader.start();
      return c;
    }

    private void read() {
      try (BufferedReader r =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        boolean inBlock = false;
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          lines.add(line);
          if (line.startsWith("Warmup complete")) {
            pinned = pinnedTo(process.pid(), cpu);
          } else if (line.startsWith("After ")) {
            inBlock = true;
          } else if (inBlock && line.isBlank()) {
            inBlock = false;
            blocks.countDown();
          }
        }
      } catch (IOException e) {
        lines.add(""); // the stream closed under it when the JVM was ended
      }
    }

    void await(long deadlineNanos) throws InterruptedException {
      long left = deadlineNanos - System.nanoTime();
      if (left > 0) {
        blocks.await(left, TimeUnit.NANOSECONDS);
      }
    }

    String thread() {
      Boolean p = pinned;
      if (p == null) {
        return "not checked";
      }
      return p ? "PINNED (AffinityLock)" : "NOT PINNED (no thread of its JVM bound to it)";
    }

    void end() {
      process.destroy();
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        reader.join(10_000);
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Whether a thread of process {@code pid} may run on {@code cpu} alone. */
  static boolean pinnedTo(long pid, int cpu) {
    Path tasks = Path.of("/proc", Long.toString(pid), "task");
    try (Stream<Path> ts = Files.list(tasks)) {
      return ts.anyMatch(t -> allowed(t.resolve("status")).equals(String.valueOf(cpu)));
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static String allowed(Path status) {
    try (Stream<String> lines = Files.lines(status)) {
      return lines
          .filter(l -> l.startsWith("Cpus_allowed_list:"))
          .map(l -> l.substring("Cpus_allowed_list:".length()).strip())
          .findFirst()
          .orElse("");
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }
}
