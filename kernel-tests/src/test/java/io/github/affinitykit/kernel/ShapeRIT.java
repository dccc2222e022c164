package io.github.affinitykit.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Shape R live: a JVM in a container {@code runc} started on CPUs 2-5, its threads pinned to 3 and
 * 4 by a {@code PinnedThreadFactory}, a watchdog re-planning them ({@code RepinPolicy.REPLAN}), and
 * {@code runc update --cpuset-cpus 2-3}: the thread whose CPU 4 is gone is re-planned onto the free
 * CPU 2 and CPU 4 freed. The 6.1 kernel resets both threads to 2-3, so the one on 3 is re-pinned
 * first; 6.12 ({@code SingleThreadedShapesIT}'s nested class) leaves it on 3.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ShapeRIT extends BootedShape {
  private static final String MOVE = "pinned to cpu 4 but the kernel now allows it on 2-3";

  @Override
  Shape shape() {
    return Shapes.R;
  }

  /** Whether the guest's kernel resets every task of a cpuset to its new CPUs (6.1 does). */
  boolean resetsMasks() {
    return true;
  }

  @Test
  void shouldRunTheJvmInTheContainersCgroupWithBothThreadsPinnedBeforeTheUpdate() {
    JsonNode c = guest.section("r", "container");
    assertThat(c.path("kernel").asText()).startsWith(shape().kernel() + ".");
    assertThat(c.path("cgroup").asText()).isEqualTo("/kubepods/pod1/c1");
    assertThat(c.path("pid").asLong()).as("the first process of its pid namespace").isEqualTo(1);
    assertThat(c.path("hostname").asText()).as("its uts namespace").isEqualTo("c1");
    assertThat(c.path("reachable").asText()).isEqualTo("2-5");
    JsonNode before = c.path("before");
    assertThat(before.path("cpuset").asText()).isEqualTo("2-5");
    assertThat(field(before, "cpu")).containsExactly("3", "4");
    assertThat(field(before, "allowed")).containsExactly("3", "4");
    assertThat(field(before, "status")).containsExactly("PINNED", "PINNED");
  }

  @Test
  void shouldReplanTheThreadWhoseCpuIsGoneOntoTheFreeCpuOnce() {
    JsonNode c = guest.section("r", "container");
    assertThat(c.path("updated").asBoolean()).as("runc update ran").isTrue();
    assertThat(c.path("after").path("cpuset").asText()).isEqualTo("2-3");
    assertThat(c.path("replanned").asBoolean()).as("re-planned within 60 s").isTrue();
    assertThat(c.path("settled").asBoolean()).as("two checks after the update").isTrue();
    List<String> events = new ArrayList<>();
    for (JsonNode e : c.path("events")) {
      events.add(
          e.path("kind").asText() + " " + e.path("cpu").asInt() + " " + e.path("mask").asText());
    }
    if (resetsMasks()) {
      assertThat(events)
          .containsExactlyInAnyOrder(
              "MOVED 3 2-3", "REPINNED 3 2-3", "MOVED 4 2-3", "REPLANNED 2 2-3");
      assertThat(events.indexOf("MOVED 3 2-3")).isLessThan(events.indexOf("REPINNED 3 2-3"));
    } else {
      assertThat(events).containsExactly("MOVED 4 2-3", "REPLANNED 2 2-3");
    }
    assertThat(events.indexOf("MOVED 4 2-3")).isLessThan(events.indexOf("REPLANNED 2 2-3"));
    for (JsonNode e : c.path("events")) {
      if (e.path("kind").asText().equals("REPLANNED")) {
        assertThat(e.path("detail").asText())
            .isEqualTo(
                "re-planned from cpu 4 to cpu 2: cpu 4 is gone: the kernel allows the thread"
                    + " only on 2-3");
      }
    }
  }

  @Test
  void shouldLeaveBothThreadsAloneOnTheirCpusAndTheAssignmentsSayingWhatHappened() {
    JsonNode after = guest.section("r", "container").path("after");
    assertThat(field(after, "cpu")).containsExactly("3", "2");
    assertThat(field(after, "allowed")).as("Cpus_allowed_list after").containsExactly("3", "2");
    assertThat(field(after, "status")).containsExactly("PINNED", "PINNED");
    JsonNode three = after.path("threads").get(0);
    if (resetsMasks()) {
      assertThat(three.path("reason").asText())
          .endsWith("(re-pinned after: pinned to cpu 3 but the kernel now allows it on 2-3)");
    } else {
      assertThat(three.path("reason").asText()).isEqualTo("explicit cpu 3");
    }
    assertThat(after.path("threads").get(1).path("reason").asText())
        .isEqualTo("explicit cpu 4 (re-planned from cpu 4 to cpu 2, ANY, after: " + MOVE + ")");
  }

  /** One field of every thread, in the factory's order. */
  private static List<String> field(JsonNode side, String name) {
    List<String> out = new ArrayList<>();
    side.path("threads").forEach(t -> out.add(t.path(name).asText()));
    return out;
  }
}
