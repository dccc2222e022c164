package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.affinitykit.audit.ConfineReport;
import io.github.affinitykit.audit.CpuAudit;
import io.github.affinitykit.audit.CpuVerdict;
import io.github.affinitykit.audit.JvmThreads;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.cpu.CpuSet;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The exclusivity audit, live: our pinned (duty-cycled) busy thread alone on a pool CPU
 * (EXCLUSIVE), then an unpinned busy thread forced onto it behind the kit's back (INTRUDED, naming
 * it), then {@link JvmThreads#confine()} and the audit again (EXCLUSIVE).
 *
 * <p>Thread safety: a section; runs on the guest program's main thread.
 */
final class AuditSection {
  static final String INTRUDER = "intruder-busy";
  private static final Duration WINDOW = Duration.ofMillis(1000);

  private AuditSection() {}

  static void run(ObjectNode data, PrintStream log) throws Exception {
    AffinityKit kit = AffinityKit.shared();
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch pinned = new CountDownLatch(1);
    CpuLease[] lease = new CpuLease[1];
    Thread owner =
        new Thread(
            () -> {
              try (CpuLease l = kit.pinCurrentThread()) {
                lease[0] = l;
                pinned.countDown();
                spin(stop);
              }
            },
            "owner-busy");
    owner.start();
    Thread intruder = null;
    try {
      pinned.await(60, TimeUnit.SECONDS);
      int cpu = lease[0].cpu();
      data.put("cpu", cpu).put("leaseStatus", lease[0].status().name());
      CpuSet target = CpuSet.of(cpu);
      verdict(data.putObject("alone"), CpuAudit.of(kit, target, WINDOW).verdict(cpu), log);

      CountDownLatch forced = new CountDownLatch(1);
      intruder =
          new Thread(
              () -> {
                kit.backend().setAffinity(0, target);
                forced.countDown();
                spin(stop);
              },
              INTRUDER);
      intruder.setDaemon(true);
      intruder.start();
      forced.await(60, TimeUnit.SECONDS);
      verdict(data.putObject("intruded"), CpuAudit.of(kit, target, WINDOW).verdict(cpu), log);

      ConfineReport report = JvmThreads.of(kit).confine();
      data.put("confine", report.summary());
      var moved = data.putArray("moved");
      report.moved().forEach(e -> moved.add(e.name()));
      verdict(data.putObject("confined"), CpuAudit.of(kit, target, WINDOW).verdict(cpu), log);
    } finally {
      stop.set(true);
      owner.join(TimeUnit.SECONDS.toMillis(30));
      if (intruder != null) {
        intruder.join(TimeUnit.SECONDS.toMillis(30));
      }
    }
  }

  static void verdict(ObjectNode into, CpuVerdict v, PrintStream log) {
    into.put("verdict", v.verdict().name());
    var intruders = into.putArray("intruders");
    for (CpuVerdict.Intruder i : v.intruders()) {
      intruders
          .addObject()
          .put("kind", i.kind().name())
          .put("tid", i.tid())
          .put("name", i.name())
          .put("detail", i.detail());
    }
    var notes = into.putArray("notes");
    v.notes().forEach(notes::add);
    log.println("cpu " + v.cpu() + ": " + into);
  }

  /**
   * Burns 1 ms of CPU every 5 ms until stopped: enough for the audit to see it run, light enough
   * that two of them do not starve a TCG guest on a 2-CPU host.
   */
  static void spin(AtomicBoolean stop) {
    long x = 0;
    while (!stop.get()) {
      long until = System.nanoTime() + 1_000_000;
      while (System.nanoTime() < until) {
        x++;
      }
      LockSupport.parkNanos(4_000_000);
    }
    if (x == 42) {
      System.out.print("");
    }
  }
}
