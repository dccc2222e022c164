package io.github.affinitykit.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.affinitykit.core.cpu.CpuSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Shape C live: 8 CPUs with CPU 5 offline before the JVM starts, then the CPU of a pinned thread
 * taken offline under it.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ShapeCIT extends BootedShape {
  @Override
  Shape shape() {
    return Shapes.C;
  }

  @Test
  void shouldLeaveTheOfflineCpuOutOfTheHostModelAndThePool() {
    JsonNode j = guest.section("c", "doctor").path("json");
    JsonNode sets = j.path("sets");
    assertThat(sets.path("online").asText()).isEqualTo("0-4,6-7");
    assertThat(sets.path("offline").asText()).isEqualTo("5");
    assertThat(sets.path("reachable").asText()).isEqualTo("0-4,6-7");
    assertThat(j.path("pool").path("cpus").asText()).isEqualTo("2-4,6-7");
    assertThat(j.path("pool").path("housekeeping").asText()).isEqualTo("0-1");
  }

  @Test
  void shouldReportMovedWhenThePinnedThreadsCpuGoesOffline() {
    JsonNode o = guest.section("c", "offline");
    int cpu = o.path("cpu").asInt();
    assertThat(cpu).isEqualTo(7);
    JsonNode before = o.path("before");
    assertThat(before.path("status").asText()).isEqualTo("PINNED");
    assertThat(before.path("allowed").asText()).isEqualTo("7");
    assertThat(before.path("schedCpu").asInt()).isEqualTo(7);
    assertThat(CpuSet.parse(o.path("onlineDuring").asText()).contains(cpu)).isFalse();
    JsonNode after = o.path("after");
    assertThat(after.has("error")).as("%s", after).isFalse();
    assertThat(after.path("allowed").asText()).isNotEqualTo("7");
    assertThat(after.path("schedCpu").asInt()).isNotEqualTo(7);
    assertThat(after.path("checked").asText()).isEqualTo("MOVED");
    assertThat(after.path("status").asText()).isEqualTo("MOVED");
    // the kernel widened the mask; sched_getaffinity reports it without the offline CPU
    String reason = after.path("reason").asText();
    assertThat(reason).startsWith("pinned to cpu 7 but the kernel now allows it on ");
    assertThat(CpuSet.parse(reason.substring(reason.lastIndexOf(' ') + 1)).contains(7)).isFalse();
    assertThat(after.path("movedTotal").asLong()).isEqualTo(1);
    assertThat(o.path("onlineAfter").asText()).isEqualTo("0-4,6-7");
  }
}
