package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.Assignment;
import io.github.affinitykit.core.CpuGroupBuilder;
import io.github.affinitykit.core.PinnedThreadFactory;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.RunOutPolicy;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import net.openhft.affinity.AffinityStrategies;

/**
 * Starts groups of threads from {@link PinnedThreadFactory}s with OpenHFT strategies and our own
 * placements, keeps each group alive until every thread has read back its mask and CPU, and reports
 * the factory's assignments beside what the kernel says. Also lists every thread of this JVM with
 * its mask, so the host can check that nothing runs outside the CPUs it may use.
 *
 * <p>Thread safety: a section; runs on the guest program's main thread.
 */
final class PlacementSection {
  private PlacementSection() {}

  static void run(ObjectNode data, PrintStream log) throws Exception {
    AffinityKit kit = AffinityKit.shared();
    int poolSize = kit.pool().cpus().size();
    group(data, log, "differentCore", 3, b -> b.strategies(AffinityStrategies.DIFFERENT_CORE));
    group(data, log, "sameCore", 2, b -> b.strategies(AffinityStrategies.SAME_CORE));
    group(data, log, "differentSocket", 2, b -> b.strategies(AffinityStrategies.DIFFERENT_SOCKET));
    group(data, log, "sameNumaNode", 2, b -> b.placements(Placement.SAME_NUMA_NODE));
    group(data, log, "differentNumaNode", 4, b -> b.placements(Placement.DIFFERENT_NUMA_NODE));
    if (poolSize <= 16) {
      group(
          data,
          log,
          "overflow",
          poolSize + 1,
          b ->
              b.strategies(AffinityStrategies.DIFFERENT_CORE, AffinityStrategies.ANY)
                  .runOut(RunOutPolicy.UNPINNED));
    }
    ArrayNode tasks = data.putArray("jvmThreads");
    for (Path task : listTasks()) {
      try {
        String allowed = ThreadFacts.allowed(task.resolve("status"));
        tasks.addObject().put("tid", task.getFileName().toString()).put("allowed", allowed);
      } catch (java.nio.file.NoSuchFileException ended) {
        // the thread ended between the listing and the read
      }
    }
  }

  /** Configures one factory's group. */
  interface Config {
    CpuGroupBuilder apply(CpuGroupBuilder b);
  }

  /**
   * Runs {@code threads} threads of a factory configured by {@code config}, all alive at once, and
   * reports them under {@code data.name}.
   */
  static ObjectNode group(ObjectNode data, PrintStream log, String name, int threads, Config config)
      throws Exception {
    AffinityKit kit = AffinityKit.shared();
    PinnedThreadFactory f = PinnedThreadFactory.builder(config.apply(kit.group(name))).build();
    CountDownLatch read = new CountDownLatch(threads);
    CountDownLatch done = new CountDownLatch(1);
    ObjectNode group = data.putObject(name);
    ArrayNode facts = group.putArray("threads");
    List<ObjectNode> slots = new ArrayList<>();
    List<Thread> started = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      ObjectNode slot = facts.addObject();
      slots.add(slot);
      Thread t =
          f.newThread(
              () -> {
                try {
                  ThreadFacts.of(kit, slot);
                } catch (Exception e) {
                  slot.put("error", e.toString());
                } finally {
                  read.countDown();
                }
                await(done);
              });
      t.start();
      started.add(t);
    }
    boolean all = read.await(60, TimeUnit.SECONDS);
    List<Assignment> as = f.assignments();
    for (int i = 0; i < as.size() && i < slots.size(); i++) {
      Assignment a = as.get(i);
      slots.get(i).put("cpu", a.cpu()).put("status", a.status().name()).put("reason", a.reason());
    }
    done.countDown();
    for (Thread t : started) {
      t.join(TimeUnit.SECONDS.toMillis(30));
    }
    f.close();
    group.put("allRead", all);
    log.println(name + ": " + facts);
    return group;
  }

  private static List<Path> listTasks() throws java.io.IOException {
    try (var s = java.nio.file.Files.list(Path.of("/proc/self/task"))) {
      return s.sorted().toList();
    }
  }

  static void await(CountDownLatch latch) {
    try {
      latch.await(120, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
