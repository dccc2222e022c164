package io.github.affinitykit.watchdog;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.internal.SysFs;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FakeAudit;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.FakeHostFiles;
import io.github.affinitykit.core.testkit.KitEvents;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watchdog's Flight Recorder events, recorded and read back: one {@code PinnedCpu} per pinned
 * thread and check (status, the audit's verdict and intruders, the context switches since the
 * previous check, from a fixture {@code /proc}) and a {@code LeaseRepinned} for the move undone.
 */
@Timeout(60)
class WatchdogFlightTest {
  private static final String STAT =
      " S 1 1 1 0 -1 4194624 10 0 0 0 250 30 0 0 20 0 1 0 100 0 0 18446744073709551615"
          + " 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0";

  @TempDir Path root;
  @TempDir Path locks;

  private static void switches(Path proc, int tid, int voluntary, int involuntary) {
    String dir = "proc/" + ProcessHandle.current().pid() + "/task/" + tid + "/";
    new FakeHostFiles(proc)
        .file(dir + "stat", tid + " (svc-0)" + STAT)
        .file(
            dir + "status",
            "voluntary_ctxt_switches:\t"
                + voluntary
                + "\nnonvoluntary_ctxt_switches:\t"
                + involuntary
                + "\n");
  }

  @Test
  void shouldRecordEachPinnedCpuAtEveryCheckAndTheRepin() throws Exception {
    RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, 3));
    HostCpus host = FakeHost.create(root.resolve("host"), 4, 1).probe();
    AffinityKit kit = AffinityKit.create(host, backend, CpuReservations.inDirectory(locks));
    Path proc = root.resolve("tasks");
    Watchdog dog =
        Watchdog.builder(kit)
            .period(Duration.ofSeconds(1))
            .audit(Duration.ofMillis(5))
            .repin(RepinPolicy.REPIN)
            .auditor(
                (h, cpus, window, owners) ->
                    FakeAudit.of(window, 2, FakeAudit.Verdict.INTRUDED, "45: irq"))
            .tasks(new SysFs(proc))
            .build();
    Path file = root.resolve("events.jfr");
    List<RecordedEvent> events;
    try (Recording r = new Recording();
        CpuLease lease = kit.group("svc").cpus(2).build().join("svc-0").bindOnce()) {
      r.enable("io.github.affinitykit.PinnedCpu");
      r.enable("io.github.affinitykit.LeaseRepinned");
      r.start();
      switches(proc, lease.tid(), 10, 2);
      dog.checkNow();
      switches(proc, lease.tid(), 25, 3);
      backend.setAffinity(lease.tid(), CpuSet.range(1, 2));
      dog.checkNow();
      events = KitEvents.stopAndRead(r, file);
    }

    assertThat(events)
        .extracting(e -> e.getEventType().getName())
        .containsExactly(
            "io.github.affinitykit.PinnedCpu",
            "io.github.affinitykit.LeaseMoved",
            "io.github.affinitykit.LeaseRepinned",
            "io.github.affinitykit.PinnedCpu");
    events.forEach(e -> assertThat(e.getStackTrace()).as(e.toString()).isNull());
    RecordedEvent first = events.get(0);
    assertThat(first.getInt("cpu")).isEqualTo(2);
    assertThat(first.getString("thread")).isEqualTo(Thread.currentThread().getName());
    assertThat(first.getString("group")).isEqualTo("svc");
    assertThat(first.getString("status")).isEqualTo("PINNED");
    assertThat(first.getString("verdict")).isEqualTo("INTRUDED");
    assertThat(first.getString("intruders")).isEqualTo("45: irq");
    assertThat(first.getLong("voluntarySwitches")).isEqualTo(10); // since the thread began
    assertThat(first.getLong("involuntarySwitches")).isEqualTo(2);
    assertThat(first.getDuration("interval")).isZero(); // the thread's first check
    RecordedEvent repinned = events.get(2);
    assertThat(repinned.getBoolean("repinned")).isTrue();
    assertThat(repinned.getString("allowed")).isEqualTo("1-2");
    assertThat(repinned.getString("detail"))
        .endsWith("(re-pinned after: pinned to cpu 2 but the kernel now allows it on 1-2)");
    RecordedEvent second = events.get(3);
    assertThat(second.getString("status")).isEqualTo("PINNED"); // re-pinned in the same check
    assertThat(second.getLong("voluntarySwitches")).isEqualTo(15); // since the previous check
    assertThat(second.getLong("involuntarySwitches")).isEqualTo(1);
    assertThat(second.getDuration("interval")).isPositive();
  }
}
