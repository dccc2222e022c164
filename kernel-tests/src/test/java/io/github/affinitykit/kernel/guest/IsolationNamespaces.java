package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cli.AffinityKitCli;
import io.github.affinitykit.isolation.Isolator;
import io.github.affinitykit.isolation.OwnerState;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Two containers sharing the journal directory, each JVM pid 1 of its own pid namespace ({@code
 * unshare -p -f}): one isolates CPU 3 and holds it; the other runs {@code release}, which must
 * leave the live one alone (its owner lock is held, whatever pid 1 looks like from here). Then the
 * holder is killed with SIGKILL and this JVM's release undoes it.
 *
 * <p>Thread safety: a section; run on the guest program's main thread.
 */
final class IsolationNamespaces {
  private static final Path READY = Path.of("/tmp/namespace-holder");

  private IsolationNamespaces() {}

  /** The guest's java in a new pid namespace, as its pid 1. */
  private static List<String> inNamespace(String... args) {
    List<String> cmd = new ArrayList<>(List.of("unshare", "-p", "-f"));
    cmd.addAll(Child.java(args));
    return cmd;
  }

  /**
   * Runs it. What the holder changed is read only where a release would show (its journal, its
   * cgroup, {@code default_smp_affinity}): each JVM start costs seconds under TCG.
   */
  static void run(ObjectNode data, PrintStream log) throws Exception {
    String cp = System.getProperty("kernel.classpath");
    try (Child holder =
        Child.start(
            "ns-holder",
            inNamespace("-cp", cp, IsolateOnce.class.getName(), "3", READY.toString()))) {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      while (!Files.exists(READY) && System.nanoTime() < deadline) {
        Thread.sleep(200); // another process: nothing to wait on but its file
      }
      data.put("holder", Files.exists(READY) ? Files.readString(READY) : holder.output(4000));
      String journal = field(data.path("holder").asText(), "journal");
      data.set("during", traces(journal));
      try (Child releaser =
          Child.start(
              "ns-release",
              inNamespace("-cp", cp, AffinityKitCli.class.getName(), "release", "--json"))) {
        data.put("releaseExit", releaser.await(180)).put("releaseOut", releaser.output(20_000));
      }
      data.set("afterRelease", traces(journal));
    } // closing kills the holder with SIGKILL: the kernel drops its owner lock
    Isolator isolator = Isolator.live(AffinityKit.shared().backend());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (isolator.journals().stream().anyMatch(j -> j.owner() == OwnerState.ALIVE)
        && System.nanoTime() < deadline) {
      Thread.sleep(100); // the holder's JVM is still being reaped
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status =
        AffinityKitCli.run(
            List.of("release", "--json"), new PrintStream(out, true, StandardCharsets.UTF_8), log);
    data.put("finalExit", status).put("finalOut", out.toString(StandardCharsets.UTF_8));
    log.println(
        "namespaces: " + data.path("holder").asText() + "release " + data.path("releaseExit"));
  }

  /** Whether the holder's journal and cgroup are there, and the default IRQ affinity. */
  private static ObjectNode traces(String journal) throws java.io.IOException {
    ObjectNode t = GuestMain.JSON.createObjectNode();
    t.put("journal", !journal.isEmpty() && Files.exists(Path.of(journal)));
    String id = journal.replaceAll(".*isolation-([0-9a-f]+)\\.journal$", "$1");
    t.put("cgroup", Files.isDirectory(Path.of("/sys/fs/cgroup/affinitykit-" + id)));
    t.put("defaultAffinity", Files.readString(Path.of("/proc/irq/default_smp_affinity")).strip());
    return t;
  }

  private static String field(String text, String key) {
    for (String line : text.split("\n")) {
      if (line.startsWith(key + "=")) {
        return line.substring(key.length() + 1);
      }
    }
    return "";
  }
}
