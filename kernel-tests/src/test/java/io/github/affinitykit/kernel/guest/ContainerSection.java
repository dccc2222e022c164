package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.Assignment;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.PinnedThreadFactory;
import io.github.affinitykit.watchdog.RepinPolicy;
import io.github.affinitykit.watchdog.WatchEvent;
import io.github.affinitykit.watchdog.Watchdog;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs inside a container that {@code runc} started (shape R): two threads of a {@link
 * PinnedThreadFactory} pinned to CPUs 3 and 4 of a group whose pool is the container's CPUs, and a
 * {@link Watchdog} re-planning them ({@link RepinPolicy#REPLAN}); once both are pinned it writes
 * {@code ready} into the directory shared with the guest's init ({@code -Dkernel.shared}, default
 * {@code /shared}), which then narrows the container's cpuset with {@code runc update --cpuset-cpus
 * 2-3}. It waits for the re-plan of the thread whose CPU 4 is gone, the update's end and two more
 * checks, and reports the kernel's release, what the watchdog told, each thread's mask as the
 * kernel has it before and after, and the factory's assignments.
 *
 * <p>Thread safety: a section; runs on the guest program's main thread.
 */
final class ContainerSection {
  /** How long the section waits for the watchdog's verdicts on both threads after {@code ready}. */
  private static final Duration VERDICTS = Duration.ofSeconds(60);

  private ContainerSection() {}

  /** The scene: pin, say ready, wait for the watchdog's re-plan (60 s at most), report. */
  static void run(ObjectNode data, PrintStream log) throws Exception {
    Path shared = Path.of(System.getProperty("kernel.shared", "/shared"));
    String cgroup = cgroupPath();
    data.put("cgroup", cgroup)
        .put("pid", ProcessHandle.current().pid())
        .put("hostname", read(Path.of("/proc/sys/kernel/hostname")))
        .put("kernel", read(Path.of("/proc/sys/kernel/osrelease")));
    AffinityKit kit = AffinityKit.shared();
    data.put("reachable", kit.host().reachable().toString());
    List<WatchEvent> told = new CopyOnWriteArrayList<>();
    CountDownLatch end = new CountDownLatch(1);
    try (PinnedThreadFactory factory =
            // the pod's CPUs are the group's pool (the kit's keeps CPU 2 for housekeeping)
            PinnedThreadFactory.builder(kit.group("svc").pool(kit.host().reachable()).cpus(3, 4))
                .build();
        Watchdog dog =
            Watchdog.builder(kit)
                .period(Duration.ofMillis(200))
                .repin(RepinPolicy.REPLAN)
                .listener(told::add)
                .start()) {
      try {
        scene(factory, dog, told, end, shared, cgroup, log, data);
      } finally {
        end.countDown(); // the threads end, whatever failed
      }
    }
    log.println("container: " + data);
  }

  private static void scene(
      PinnedThreadFactory factory,
      Watchdog dog,
      List<WatchEvent> told,
      CountDownLatch end,
      Path shared,
      String cgroup,
      PrintStream log,
      ObjectNode data)
      throws Exception {
    for (int i = 0; i < 2; i++) {
      factory.newThread(() -> awaitQuietly(end)).start();
    }
    if (!await(() -> pinned(factory.assignments()), Duration.ofSeconds(30))) {
      throw new IllegalStateException("threads not pinned: " + factory.assignments());
    }
    data.set("before", threads(factory.assignments(), cgroup));
    data.put("watchdogCpus", dog.cpus().toString());
    Files.writeString(shared.resolve("ready"), "ready\n");
    log.println("ready: " + data);
    data.put("replanned", await(() -> replanned(told), VERDICTS));
    // init writes it once runc update has returned, which may be after the watchdog's re-plan
    data.put(
        "updated", await(() -> Files.exists(shared.resolve("updated")), Duration.ofSeconds(30)));
    long checks = dog.checks(); // two more checks: every thread's move is told by then
    data.put("settled", await(() -> dog.checks() >= checks + 2, Duration.ofSeconds(10)));
    ArrayNode events = data.putArray("events");
    for (WatchEvent e : told) {
      events
          .addObject()
          .put("kind", e.kind().name())
          .put("cpu", e.cpu())
          .put("tid", e.tid())
          .put("mask", e.mask().toString())
          .put("detail", e.detail());
      log.println("event: " + e);
    }
    data.set("after", threads(factory.assignments(), cgroup));
  }

  /** Whether both threads run pinned. */
  private static boolean pinned(List<Assignment> assignments) {
    return assignments.size() == 2
        && assignments.stream().allMatch(a -> a.status() == LeaseStatus.PINNED && a.tid() > 0);
  }

  /** Whether the watchdog re-planned the thread whose CPU 4 went away onto the free CPU 2. */
  private static boolean replanned(List<WatchEvent> told) {
    return told.stream().anyMatch(e -> e.kind() == WatchEvent.Kind.REPLANNED && e.cpu() == 2);
  }

  /** Each assignment beside its thread's mask as the kernel has it, and the cgroup's CPUs. */
  private static ObjectNode threads(List<Assignment> assignments, String cgroup)
      throws IOException {
    ObjectNode out = GuestMain.JSON.createObjectNode();
    out.put("cpuset", read(Path.of("/sys/fs/cgroup" + cgroup, "cpuset.cpus.effective")));
    ArrayNode threads = out.putArray("threads");
    for (Assignment a : assignments) {
      threads
          .addObject()
          .put("thread", a.threadName())
          .put("tid", a.tid())
          .put("cpu", a.cpu())
          .put("status", a.status().name())
          .put("reason", a.reason())
          .put("allowed", ThreadFacts.allowed(Path.of("/proc/self/task/" + a.tid() + "/status")));
    }
    return out;
  }

  /** The process's cgroup v2 path, from {@code /proc/self/cgroup}'s {@code 0::} line. */
  private static String cgroupPath() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
      if (line.startsWith("0::")) {
        return line.substring(3);
      }
    }
    throw new IllegalStateException("/proc/self/cgroup: no 0:: line (expected: cgroup v2)");
  }

  private static String read(Path p) {
    try {
      return Files.readString(p).trim();
    } catch (IOException e) {
      return "unreadable: " + e;
    }
  }

  /** Polls {@code condition} every 50 ms until it holds (true) or {@code limit} passes (false). */
  private static boolean await(java.util.function.BooleanSupplier condition, Duration limit)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(50);
    }
    return true;
  }

  private static void awaitQuietly(CountDownLatch end) {
    try {
      end.await(5, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
