package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.reservation.OtherProcess;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two whole-core groups racing for the 4 SMT cores of an 8-CPU fixture, with a group of single CPUs
 * beside them that would take any idle sibling not reserved, 4 threads each joining and leaving:
 * every CPU a seat holds (a whole core, or its one CPU) is claimed by that seat alone while it
 * holds it, so no core is ever split, and every lock is free at the end. The groups share one
 * reservations instance (one JVM) or have one each (as processes have).
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WholeCoreRaceTest {
  private static final int GROUPS = 3; // two of whole cores, one of single CPUs
  private static final int THREADS = 4;
  private static final int ROUNDS = 300;

  @TempDir Path root;

  @ParameterizedTest(name = "two processes: {0}")
  @ValueSource(booleans = {false, true})
  void shouldNeverSplitACoreBetweenTwoGroups(boolean twoProcesses) throws Exception {
    HostCpus host = FakeHost.create(root.resolve("host"), 8, 2).probe();
    Path locks = root.resolve("locks");
    CpuReservations mine = CpuReservations.inDirectory(locks);
    List<CpuGroup> groups = new ArrayList<>();
    for (int i = 0; i < GROUPS; i++) {
      CpuReservations r = twoProcesses && i > 0 ? OtherProcess.on(locks) : mine;
      AffinityKit kit = AffinityKit.create(host, new RecordingAffinityBackend(host.reachable()), r);
      CpuGroupBuilder b = kit.group("g" + i).pool(host.reachable());
      groups.add(b.wholeCores(i < 2).build());
    }
    CpuTopology topology = host.topology();
    AtomicIntegerArray owner = new AtomicIntegerArray(8); // 0: free, else the claiming racer + 1
    AtomicLongArray pinned = new AtomicLongArray(GROUPS);
    Queue<String> splits = new ConcurrentLinkedQueue<>();
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(GROUPS * THREADS);
    List<Thread> racers = new ArrayList<>();
    for (int i = 0; i < GROUPS * THREADS; i++) {
      int id = i + 1;
      int group = i % GROUPS;
      CpuGroup g = groups.get(group);
      Thread t =
          new Thread(
              () -> {
                try {
                  start.await(10, TimeUnit.SECONDS);
                  for (int round = 0; round < ROUNDS; round++) {
                    Seat s = g.join();
                    if (s.cpu() >= 0) {
                      pinned.incrementAndGet(group);
                      CpuSet core = group < 2 ? topology.cpu(s.cpu()).core() : CpuSet.of(s.cpu());
                      core.forEach(c -> claim(owner, c, id, splits, g.name()));
                      core.forEach(c -> owner.compareAndSet(c, id, 0));
                    }
                    s.close();
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                } finally {
                  done.countDown();
                }
              });
      racers.add(t);
      t.start();
    }
    start.countDown();
    boolean finished = done.await(50, TimeUnit.SECONDS);
    for (Thread t : racers) {
      t.join(TimeUnit.SECONDS.toMillis(5));
    }
    groups.forEach(CpuGroup::close);

    assertThat(finished).as("racers finished").isTrue();
    assertThat(splits).as("CPUs claimed by two seats at once").isEmpty();
    for (int i = 0; i < GROUPS; i++) {
      assertThat(pinned.get(i)).as("pinned seats of g%d", i).isPositive();
    }
    assertThat(mine.reservedHere()).isEqualTo(CpuSet.empty());
    CpuReservations after = OtherProcess.on(locks);
    for (int cpu = 0; cpu < 8; cpu++) {
      after.tryReserve(cpu).orElseThrow().close();
    }
  }

  private static void claim(
      AtomicIntegerArray owner, int cpu, int id, Queue<String> splits, String group) {
    int was = owner.compareAndExchange(cpu, 0, id);
    if (was != 0) {
      splits.add("cpu " + cpu + " claimed by racer " + id + " of " + group + ", held by " + was);
    }
  }
}
