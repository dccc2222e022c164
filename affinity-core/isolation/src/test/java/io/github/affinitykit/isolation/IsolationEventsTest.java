package io.github.affinitykit.isolation;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.testkit.KitEvents;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The isolation's Flight Recorder events, recorded and read back from the file: a group's isolation
 * made and undone around a pin and unpin (a fixture kit: nothing of this host changes).
 */
@Timeout(60)
class IsolationEventsTest {
  @TempDir Path root;

  @Test
  void shouldRecordTheIsolationMadeAndUndoneWithTheirFieldsAndNoStackTrace() throws Exception {
    AffinityKit kit = TreeKits.isolating(root.resolve("host"), 4);
    List<RecordedEvent> events;
    try (Recording r = new Recording()) {
      r.enable("io.github.affinitykit.Isolation");
      r.enable("io.github.affinitykit.ThreadPinned");
      r.enable("io.github.affinitykit.ThreadReleased");
      r.start();
      try (CpuGroup group = kit.group("w").cpus(2).isolate(true).build()) {
        CpuLease lease = group.joinAll(1).get(0).bind();
        lease.close();
      }
      events = KitEvents.stopAndRead(r, root.resolve("events.jfr"));
    }

    assertThat(events)
        .extracting(e -> e.getEventType().getName().substring("io.github.affinitykit.".length()))
        .containsExactly("Isolation", "ThreadPinned", "ThreadReleased", "Isolation");
    events.forEach(e -> assertThat(e.getStackTrace()).as(e.toString()).isNull());
    RecordedEvent isolated = events.get(0);
    assertThat(isolated.getString("kind")).isEqualTo("isolation");
    assertThat(isolated.getString("cpus")).isEqualTo("2");
    assertThat(isolated.getString("status")).isEqualTo("ISOLATED");
    assertThat(events.get(3).getString("status")).isEqualTo("RELEASED");
    assertThat(events.get(3).getString("detail")).isEqualTo("undone");
  }
}
