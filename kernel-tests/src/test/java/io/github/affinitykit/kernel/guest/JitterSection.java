package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cli.AffinityKitCli;
import io.github.affinitykit.isolation.IsolationJournal;
import io.github.affinitykit.isolation.Isolator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code affinity-kit jitter --isolated} on CPU 3, in this JVM as root: every arm, the isolated one
 * included, for 1 s each, without the noise (a vCPU busy for the whole command slows the rest of
 * the guest), the anchor skipped (MicroJitterSampler's rounds take a minute) and the audit too (its
 * 20 scans of {@code /proc} a window took over 10 s an arm under TCG). While it runs, a thread
 * reads the isolation journals every 50 ms, so that the isolated arm's isolation is seen in force
 * from outside the command; the machine is read before and after, for the host to compare field by
 * field. The timings mean nothing under TCG: the host judges the table's shape.
 *
 * <p>Thread safety: a section; run on the guest program's main thread.
 */
final class JitterSection {
  static final String CPU = "3";
  private static final long POLL_MS = 50;

  private JitterSection() {}

  static void run(ObjectNode data, PrintStream log) throws Exception {
    Isolator isolator = Isolator.live(AffinityKit.shared().backend());
    data.put("pid", ProcessHandle.current().pid());
    long read = System.nanoTime();
    data.set("before", MachineState.read());
    data.put("readMs", (System.nanoTime() - read) / 1_000_000);
    Map<String, String> seen = new ConcurrentHashMap<>();
    CountDownLatch done = new CountDownLatch(1);
    Thread watcher = new Thread(() -> watch(isolator, seen, done), "jitter-journal-watcher");
    watcher.setDaemon(true);
    watcher.start();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    long start = System.nanoTime();
    int exit;
    try {
      exit =
          AffinityKitCli.run(
              List.of(
                  "jitter",
                  "--cpus",
                  CPU,
                  "--window",
                  "1s",
                  "--anchor-rounds",
                  "0",
                  "--noise",
                  "0",
                  "--no-audit",
                  "--isolated"),
              new PrintStream(out, true, StandardCharsets.UTF_8),
              new PrintStream(err, true, StandardCharsets.UTF_8));
    } finally {
      done.countDown();
      watcher.join(TimeUnit.SECONDS.toMillis(10));
    }
    data.put("commandMs", (System.nanoTime() - start) / 1_000_000);
    data.put("exit", exit).put("stderr", err.toString(StandardCharsets.UTF_8));
    data.put("out", out.toString(StandardCharsets.UTF_8));
    ArrayNode during = data.putArray("journalsSeen");
    seen.values().forEach(during::add);
    data.put("journalsAfter", isolator.journals().size());
    data.set("after", MachineState.read());
    log.println(data.path("out").asText());
    log.println("journals seen while it ran: " + during + "; after: " + isolator.journals());
  }

  /** Until {@code done}: each journal found, as {@code pid cpus mechanism owner}, by its path. */
  private static void watch(Isolator isolator, Map<String, String> seen, CountDownLatch done) {
    try {
      do {
        for (IsolationJournal j : isolator.journals()) {
          seen.putIfAbsent(
              j.journal(), j.ownerPid() + " " + j.cpus() + " " + j.mechanism() + " " + j.owner());
        }
      } while (!done.await(POLL_MS, TimeUnit.MILLISECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      seen.put("error", e.toString());
    }
  }
}
