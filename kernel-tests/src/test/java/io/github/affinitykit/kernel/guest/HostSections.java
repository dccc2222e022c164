package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.cli.AffinityKitCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Sections about the host model and single pinned threads: the doctor's JSON, a thread on the
 * highest CPU id, and a pinned thread whose CPU is taken offline under it.
 *
 * <p>Thread safety: sections; run on the guest program's main thread.
 */
final class HostSections {
  private HostSections() {}

  /** {@code doctor --json}, parsed, plus the text doctor (without its audit) in the log. */
  static void doctor(ObjectNode data, PrintStream log) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        AffinityKitCli.run(
            List.of("doctor", "--json"),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    data.put("exit", exit).put("stderr", err.toString(StandardCharsets.UTF_8));
    data.set("json", GuestMain.JSON.readTree(out.toByteArray()));
    log.println(AffinityKitCli.explain(AffinityKit.shared(), Duration.ZERO));
  }

  /** Pins a thread on the highest CPU id the kernel knows and reads it back. */
  static void highest(ObjectNode data, PrintStream log) throws Exception {
    AffinityKit kit = AffinityKit.shared();
    int cpu = kit.host().reachable().last();
    data.put("highest", cpu);
    ObjectNode facts = data.putObject("thread");
    Thread t =
        new Thread(
            () -> {
              try (CpuLease l = kit.pinCurrentThread(cpu)) {
                facts.put("status", l.status().name()).put("cpu", l.cpu());
                ThreadFacts.of(kit, facts);
              } catch (Exception e) {
                facts.put("error", e.toString());
              }
            },
            "highest");
    t.start();
    t.join(TimeUnit.SECONDS.toMillis(60));
    log.println("highest: " + data);
  }

  /**
   * Pins a thread on the last pool CPU, takes that CPU offline while the thread holds it, and
   * reports what the thread and its lease say afterwards; brings the CPU back.
   */
  static void offline(ObjectNode data, PrintStream log) throws Exception {
    AffinityKit kit = AffinityKit.shared();
    int cpu = kit.pool().cpus().last();
    Path online = Path.of("/sys/devices/system/cpu/cpu" + cpu + "/online");
    data.put("cpu", cpu).put("onlineBefore", Files.readString(sys("online")).trim());
    CountDownLatch pinned = new CountDownLatch(1);
    CountDownLatch offlined = new CountDownLatch(1);
    ObjectNode before = data.putObject("before");
    ObjectNode after = data.putObject("after");
    Thread t =
        new Thread(
            () -> {
              try (CpuLease l = kit.pinCurrentThread(cpu)) {
                before.put("status", l.status().name()).put("cpu", l.cpu());
                ThreadFacts.of(kit, before);
                pinned.countDown();
                PlacementSection.await(offlined);
                ThreadFacts.of(kit, after);
                after.put("checked", l.check().name()).put("status", l.status().name());
                after.put("reason", l.reason()).put("movedTotal", kit.movedTotal());
              } catch (Exception e) {
                after.put("error", e.toString());
              } finally {
                pinned.countDown();
              }
            },
            "held");
    t.start();
    pinned.await(60, TimeUnit.SECONDS);
    Files.writeString(online, "0");
    data.put("onlineDuring", Files.readString(sys("online")).trim());
    offlined.countDown();
    t.join(TimeUnit.SECONDS.toMillis(60));
    Files.writeString(online, "1");
    data.put("onlineAfter", Files.readString(sys("online")).trim());
    log.println("offline: " + data);
  }

  private static Path sys(String name) {
    return Path.of("/sys/devices/system/cpu", name);
  }
}
