package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.affinitykit.audit.CpuAudit;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.cli.AffinityKitCli;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.isolation.Isolation;
import io.github.affinitykit.isolation.Isolator;
import io.github.affinitykit.isolation.OwnerState;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runtime isolation, live: a busy unrelated process runs; a duty-cycled thread of this JVM is
 * pinned on CPU 3; the kit isolates CPU 3; the audit judges it while the noise keeps running
 * elsewhere; closing undoes it. The machine's state is read before, during and after, for the host
 * to compare field by field.
 *
 * <p>Thread safety: sections; run on the guest program's main thread.
 */
final class IsolationSection {
  static final int CPU = 3;
  private static final Duration WINDOW =
      Duration.ofMillis(100); // 4 scans of /proc: seconds under TCG

  private IsolationSection() {}

  /**
   * One JVM isolates CPU 3 in each way in turn, changing the host between them: cgroup v1 cpuset (a
   * v1 hierarchy mounted), the shield (nothing mounted), a cgroup v2 partition (cgroup2 mounted,
   * this JVM in the root cgroup), then deep in {@code /system/svc}, the noise in {@code /other}.
   * One JVM instead of four: each start costs seconds under TCG.
   */
  static void allWays(ObjectNode data, PrintStream log) throws Exception {
    String cg = "/sys/fs/cgroup";
    way(
        data,
        "v1",
        "",
        log,
        "mount -t tmpfs cgroup_root " + cg,
        "mkdir " + cg + "/cpuset",
        "mount -t cgroup -o cpuset cpuset " + cg + "/cpuset");
    way(data, "shield", "", log, "umount " + cg + "/cpuset 2>/dev/null; umount " + cg);
    way(data, "v2root", "", log, "mount -t cgroup2 none " + cg);
    cli(data.putObject("cli"), log);
    way(
        data,
        "v2deep",
        cg + "/other",
        log,
        "echo +cpuset > " + cg + "/cgroup.subtree_control",
        "mkdir -p " + cg + "/system/svc " + cg + "/other",
        "echo +cpuset > " + cg + "/system/cgroup.subtree_control",
        "echo " + ProcessHandle.current().pid() + " > " + cg + "/system/svc/cgroup.procs");
  }

  private static void way(
      ObjectNode data, String name, String noiseCgroup, PrintStream log, String... setup) {
    ObjectNode d = data.putObject(name);
    long t0 = System.nanoTime();
    try {
      for (String line : setup) {
        Process p = new ProcessBuilder("sh", "-c", line).redirectErrorStream(true).start();
        String out =
            new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
          d.put("unavailable", line + ": " + out.strip()); // this kernel cannot be set up so
          log.println(name + " unavailable here: " + line + ": " + out);
          return;
        }
      }
      roundTrip(d, noiseCgroup, log);
    } catch (Exception | Error e) {
      d.put("error", e.toString());
      log.println(name + " failed: " + e);
      e.printStackTrace(log);
    }
    log.println("== " + name + " took " + (System.nanoTime() - t0) / 1_000_000 + " ms");
  }

  /**
   * The command line, in this JVM: {@code isolate 3 --dry-run --json} (the plan), then {@code
   * isolate 3 --json -- sh -c ...}, whose command records the CPUs it may use, then {@code doctor
   * --json}'s isolations (none left).
   */
  static void cli(ObjectNode data, PrintStream log) throws Exception {
    Path seen = Path.of("/tmp/isolated-command.txt");
    data.set("plan", cli(log, "isolate", "3", "--dry-run", "--json"));
    data.set(
        "run",
        cli(
            log,
            "isolate",
            "3",
            "--json",
            "--",
            "sh",
            "-c",
            "grep Cpus_allowed_list: /proc/self/status > " + seen));
    data.put("commandSaw", Files.exists(seen) ? Files.readString(seen).strip() : "(nothing)");
    data.set("doctor", cli(log, "doctor", "--json", "--audit-ms", "0").path("out").path(0));
  }

  /** Runs the command line in this JVM; its status and each JSON document it printed. */
  private static ObjectNode cli(PrintStream log, String... args) throws Exception {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    int status =
        AffinityKitCli.run(
            java.util.List.of(args),
            new PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
            new PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
    ObjectNode r =
        GuestMain.JSON.createObjectNode().put("status", status).put("err", err.toString());
    var docs = r.putArray("out");
    var parser = GuestMain.JSON.createParser(out.toByteArray());
    for (var it = GuestMain.JSON.readValues(parser, com.fasterxml.jackson.databind.JsonNode.class);
        it.hasNext(); ) {
      docs.add(it.next());
    }
    log.println(String.join(" ", args) + " -> " + status + " " + err);
    return r;
  }

  /** Isolate, audit, release: the round trip. */
  static void roundTrip(ObjectNode data, String noiseCgroup, PrintStream log) throws Exception {
    AffinityKit kit = AffinityKit.shared();
    Clock clock = new Clock(log);
    try (Noise noise = Noise.start(noiseCgroup);
        Owner owner = Owner.start(kit)) {
      data.put("noisePid", noise.pid()).put("ownerStatus", owner.lease.status().name());
      data.set("before", MachineState.read());
      clock.lap("started, read the machine");
      Isolation iso = Isolation.of(kit.isolate(CpuSet.of(CPU)));
      clock.lap("isolated");
      try {
        IsolationJson.of(iso.report(), data.putObject("report"));
        data.put("journalExisted", exists(iso.report().journal()));
        log.println(iso.report().text());
        data.set("during", MachineState.read());
        long cpuBefore = noise.cpuNs();
        AuditSection.verdict(
            data.putObject("audit"),
            CpuAudit.of(CpuSet.of(CPU), WINDOW, kit.pinnedThreadIds()).verdict(CPU),
            log);
        data.put("noiseGrewNs", noise.cpuNs() - cpuBefore).put("noiseLastCpu", noise.lastCpu());
        data.put(
            "ownerAllowed",
            ThreadFacts.allowed(Path.of("/proc/self/task/" + owner.lease.tid() + "/status")));
        clock.lap("audited");
      } finally {
        iso.close();
      }
      clock.lap("released");
      IsolationJson.of(iso.released(), data.putObject("released"));
      log.println(iso.released().text());
      data.put("journalAfter", exists(iso.report().journal()));
      data.put("kitForgot", kit.isolation().isEmpty());
      owner.stop();
      data.set("after", MachineState.read());
      long cpuBefore = noise.cpuNs();
      Thread.sleep(300);
      data.put("noiseGrewAfterNs", noise.cpuNs() - cpuBefore);
      clock.lap("read the machine again");
    }
  }

  private static boolean exists(String file) {
    return !file.isEmpty() && Files.exists(Path.of(file));
  }

  /** Logs the time each step took. */
  private static final class Clock {
    private final PrintStream log;
    private long last = System.nanoTime();

    Clock(PrintStream log) {
      this.log = log;
    }

    void lap(String what) {
      long now = System.nanoTime();
      log.println("  " + what + ": " + (now - last) / 1_000_000 + " ms");
      last = now;
    }
  }

  /** Without permission: refused, nothing changed. */
  static void refused(ObjectNode data, PrintStream log) throws Exception {
    AffinityKit kit = AffinityKit.shared();
    data.put(
        "uid",
        Files.readAllLines(Path.of("/proc/self/status")).stream()
            .filter(l -> l.startsWith("Uid:"))
            .findFirst()
            .orElse("?"));
    data.set("before", MachineState.read());
    try (Isolation iso = Isolation.of(kit.isolate(CpuSet.of(CPU)))) {
      IsolationJson.of(iso.report(), data.putObject("report"));
      log.println(iso.report().text());
    }
    data.set("dryRun", cli(log, "isolate", "3", "--dry-run", "--json"));
    data.set("after", MachineState.read());
  }

  /** Where the background JVM says it is isolating: its pid, once its result is out. */
  private static final Path READY = Path.of("/tmp/isolated-and-waiting");

  /**
   * Isolates with a pinned owner and a noise process, reports it on the result port, then waits
   * (init started it in the background) for the next JVM to kill it with SIGKILL.
   */
  static void crash(ObjectNode data, PrintStream log) throws Exception {
    AffinityKit kit = AffinityKit.shared();
    Noise noise = Noise.start("");
    Owner owner = Owner.start(kit);
    data.put("noisePid", noise.pid()).put("ownerTid", owner.lease.tid());
    data.set("before", MachineState.read());
    Isolation iso = Isolation.of(kit.isolate(CpuSet.of(CPU)));
    IsolationJson.of(iso.report(), data.putObject("report"));
    log.println(iso.report().text());
    GuestMain.emit("crash", "crash", data, log);
    Files.writeString(READY, Long.toString(ProcessHandle.current().pid()));
    new CountDownLatch(1).await(10, TimeUnit.MINUTES); // SIGKILL comes first
  }

  /**
   * The next JVM: once the background one isolates, asks for the same CPU (refused), kills it with
   * SIGKILL, then does what an operator would: the doctor's view of the journals, release, and the
   * machine read again.
   */
  static void recover(ObjectNode data, PrintStream log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (!Files.exists(READY) && System.nanoTime() < deadline) {
      Thread.sleep(200); // another process: nothing to wait on but its file
    }
    long victim = Long.parseLong(Files.readString(READY).strip());
    AffinityKit kit = AffinityKit.shared();
    try (Isolation second = Isolation.of(kit.isolate(CpuSet.of(CPU)))) {
      IsolationJson.of(second.report(), data.putObject("second"));
    }
    ProcessHandle.of(victim).ifPresent(ProcessHandle::destroyForcibly);
    Isolator isolator = Isolator.live(kit.backend());
    while (isolator.journals().stream().anyMatch(j -> j.owner() == OwnerState.ALIVE)
        && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    data.set("doctor", cli(log, "doctor", "--json", "--audit-ms", "0").path("out").path(0));
    data.set("release", cli(log, "release", "--json"));
    data.set("after", MachineState.read());
    data.put("journalsLeft", isolator.journals().size());
  }

  /** This JVM's thread pinned on the isolated CPU, burning 1 ms in 5. */
  static final class Owner implements AutoCloseable {
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread thread;
    private volatile CpuLease lease;

    private Owner(AffinityKit kit, CountDownLatch pinned) {
      thread =
          new Thread(
              () -> {
                try (CpuLease l = kit.pinCurrentThread(CPU)) {
                  lease = l;
                  pinned.countDown();
                  AuditSection.spin(stop);
                }
              },
              "isolated-owner");
    }

    static Owner start(AffinityKit kit) throws InterruptedException {
      CountDownLatch pinned = new CountDownLatch(1);
      Owner o = new Owner(kit, pinned);
      o.thread.start();
      if (!pinned.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the owner thread did not pin within 60 s");
      }
      return o;
    }

    /** Stops the thread and waits for it: its lease closes, its mask is restored. */
    void stop() {
      stop.set(true);
      try {
        thread.join(TimeUnit.SECONDS.toMillis(30));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void close() {
      stop();
    }
  }
}
