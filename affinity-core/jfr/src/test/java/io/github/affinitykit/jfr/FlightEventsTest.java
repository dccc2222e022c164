package io.github.affinitykit.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.testkit.FixtureKits;
import io.github.affinitykit.core.testkit.KitEvents;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library's Flight Recorder events, recorded and read back from the file: a pin, a move, a lost
 * reservation, the unpins (a fixture kit: nothing of this host changes). The isolation's events are
 * affinity-isolation's (its IsolationEventsTest).
 */
@Timeout(60)
class FlightEventsTest {
  @TempDir Path root;

  @Test
  void shouldRecordPinMoveLossAndUnpinWithTheirFieldsAndNoStackTrace() throws Exception {
    AffinityKit kit = FixtureKits.isolating(root.resolve("host"), 4);
    RecordingAffinityBackend backend = (RecordingAffinityBackend) kit.backend();
    Path file = root.resolve("events.jfr");
    List<RecordedEvent> events;
    try (Recording r = new Recording()) {
      for (String name : List.of("ThreadPinned", "ThreadReleased", "LeaseMoved", "LeaseLost")) {
        r.enable("io.github.affinitykit." + name);
      }
      r.start();
      try (CpuGroup moved = kit.group("w").cpus(2).build();
          CpuGroup lost = kit.group("v").cpus(3).build()) {
        CpuLease a = moved.joinAll(1).get(0).bind();
        backend.setAffinity(a.tid(), CpuSet.of(1, 2)); // someone widened its mask
        assertThat(a.check()).isEqualTo(LeaseStatus.MOVED);
        a.close();
        CpuLease b = lost.joinAll(1).get(0).bind();
        Path locks = root.resolve("host/locks");
        Files.delete(locks.resolve("cpu-3.lock.affinitykit"));
        Files.delete(locks.resolve("cpu-3.lock"));
        assertThat(b.verify()).isEqualTo(LeaseStatus.LOST);
        assertThat(b.verify())
            .isEqualTo(LeaseStatus.LOST); // the loss is one event, not one a check
        b.close();
      }
      events = KitEvents.stopAndRead(r, file);
    }

    assertThat(events)
        .extracting(e -> e.getEventType().getName().substring("io.github.affinitykit.".length()))
        .containsExactly(
            "ThreadPinned",
            "LeaseMoved",
            "ThreadReleased",
            "ThreadPinned",
            "LeaseLost",
            "ThreadReleased");
    events.forEach(e -> assertThat(e.getStackTrace()).as(e.toString()).isNull());
    RecordedEvent pinned = events.get(0);
    assertThat(pinned.getString("group")).isEqualTo("w");
    assertThat(pinned.getString("member")).isEqualTo("w-0");
    assertThat(pinned.getInt("cpu")).isEqualTo(2);
    assertThat(pinned.getString("status")).isEqualTo("PINNED");
    assertThat(pinned.getString("reason")).isEqualTo("explicit cpu 2");
    assertThat(pinned.getString("memoryPolicy")).isEmpty();
    assertThat(events.get(1).getString("allowed")).isEqualTo("1-2");
    assertThat(events.get(1).getInt("cpu")).isEqualTo(2);
    assertThat(events.get(2).getString("status")).isEqualTo("MOVED");
    assertThat(events.get(4).getInt("cpu")).isEqualTo(3);
    assertThat(events.get(5).getString("status")).isEqualTo("LOST");
  }
}
