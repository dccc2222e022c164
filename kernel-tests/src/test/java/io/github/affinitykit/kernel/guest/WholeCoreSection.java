package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.Seat;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.reservation.Reservation;
import io.github.affinitykit.core.reservation.ReservationResult;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Whole cores across processes: this JVM seats three whole-core members ({@code wholeCores(true)})
 * on the kit's pool, binds a thread to each seat that got a core and reads its mask back, reads the
 * lock files of the pool's cores, then starts a second JVM ({@link SiblingProbe}) that tries to
 * reserve the idle siblings and to take a whole core itself. After the group closes, the siblings
 * are reserved again to show they were freed.
 *
 * <p>Thread safety: a section; runs on the guest program's main thread.
 */
final class WholeCoreSection {
  private WholeCoreSection() {}

  static void run(ObjectNode data, PrintStream log) throws Exception {
    AffinityKit kit = AffinityKit.shared();
    data.put("pid", ProcessHandle.current().pid());
    CountDownLatch done = new CountDownLatch(1);
    List<Thread> bound = new ArrayList<>();
    try (CpuGroup g = kit.group("whole").wholeCores(true).build()) {
      List<Seat> seats = g.joinAll(3);
      ArrayNode all = data.putArray("seats");
      ObjectNode threads = data.putObject("bound");
      ArrayNode facts = threads.putArray("threads");
      CountDownLatch read =
          new CountDownLatch((int) seats.stream().filter(s -> s.cpu() >= 0).count());
      for (Seat s : seats) {
        all.addObject()
            .put("cpu", s.cpu())
            .put("status", s.status().name())
            .put("reason", s.reason());
        if (s.cpu() >= 0) {
          ObjectNode slot = facts.addObject().put("cpu", s.cpu()).put("status", s.status().name());
          Thread t = new Thread(s.bound(() -> readBack(kit, slot, read, done)), "whole-" + s.cpu());
          bound.add(t);
          t.start();
        }
      }
      threads.put("allRead", read.await(60, TimeUnit.SECONDS));
      data.put("held", g.held().toString());
      ObjectNode files = data.putObject("lockFiles");
      for (int cpu = 2; cpu <= 7; cpu++) {
        Path f = kit.reservations().lockFile(cpu);
        files.put(String.valueOf(cpu), Files.exists(f) ? Files.readString(f) : "");
      }
      long start = System.nanoTime();
      String dir = kit.reservations().directory().toString();
      String cp = System.getProperty("kernel.classpath");
      List<String> tries = List.of("5", "7", "4+5", "2+3");
      List<String> cmd = new ArrayList<>(List.of("-cp", cp, SiblingProbe.class.getName(), dir));
      cmd.addAll(tries);
      try (Child probe = Child.start("sibling-probe", Child.java(cmd.toArray(String[]::new)))) {
        data.put("probeExit", probe.await(120));
        data.put("probeMs", (System.nanoTime() - start) / 1_000_000);
        String out = probe.output(8000);
        data.put("probeOutput", out);
        ObjectNode tried = data.putObject("probe");
        out.lines()
            .filter(l -> l.startsWith("PROBE "))
            .map(l -> l.split(" ", 4))
            .forEach(w -> tried.putObject(w[1]).put("status", w[2]).put("reason", w[3]));
      }
    } finally {
      done.countDown();
      for (Thread t : bound) {
        t.join(TimeUnit.SECONDS.toMillis(30));
      }
    }
    data.put("reservedAfter", kit.reservations().reservedHere().toString());
    ReservationResult again = kit.reservations().tryReserve(5, CpuSet.of(4, 6, 7));
    data.put("retaken", again.reservation().map(r -> r.cpus().toString()).orElse(again.reason()));
    again.reservation().ifPresent(Reservation::close);
    log.println("wholecore: " + data);
  }

  /** On the bound thread: its mask, CPU and lease's CPUs; then it waits for {@code done}. */
  private static void readBack(
      AffinityKit kit, ObjectNode slot, CountDownLatch read, CountDownLatch done) {
    try {
      ThreadFacts.of(kit, slot);
      slot.put(
          "leaseCpus", kit.currentLease().map(CpuLease::cpus).orElse(CpuSet.empty()).toString());
    } catch (Exception e) {
      slot.put("error", e.toString());
    } finally {
      read.countDown();
    }
    PlacementSection.await(done);
  }
}
