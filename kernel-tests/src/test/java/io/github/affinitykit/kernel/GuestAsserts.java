package io.github.affinitykit.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.affinitykit.core.cpu.CpuSet;
import java.util.ArrayList;
import java.util.List;

/**
 * Assertions shared by the shape tests: a thread group's CPUs, and that every pinned thread read
 * back exactly its assignment from the kernel.
 *
 * <p>Thread safety: stateless.
 */
final class GuestAsserts {
  private GuestAsserts() {}

  /** The CPUs of a placement group's threads, in creation order (-1 for unplaced). */
  static List<Integer> cpus(JsonNode group) {
    List<Integer> out = new ArrayList<>();
    group.path("threads").forEach(t -> out.add(t.path("cpu").asInt(-2)));
    return out;
  }

  /** The statuses of a placement group's threads, in creation order. */
  static List<String> statuses(JsonNode group) {
    List<String> out = new ArrayList<>();
    group.path("threads").forEach(t -> out.add(t.path("status").asText()));
    return out;
  }

  /**
   * Every pinned thread of the group saw its own CPU: {@code Cpus_allowed_list} is exactly it and
   * {@code sched_getcpu()} returned it; unpinned ones were allowed on {@code unpinnedMask}.
   */
  static void readBackMatches(JsonNode group, CpuSet unpinnedMask) {
    assertThat(group.path("allRead").asBoolean()).as("every thread reported").isTrue();
    for (JsonNode t : group.path("threads")) {
      assertThat(t.has("error")).as("thread error: %s", t).isFalse();
      if (t.path("status").asText().equals("PINNED")) {
        String cpu = String.valueOf(t.path("cpu").asInt());
        assertThat(t.path("allowed").asText()).as("Cpus_allowed_list of %s", t).isEqualTo(cpu);
        assertThat(t.path("schedCpu").asInt())
            .as("sched_getcpu of %s", t)
            .isEqualTo(t.path("cpu").asInt());
      } else {
        assertThat(CpuSet.parse(t.path("allowed").asText()))
            .as("mask of unpinned %s", t)
            .isEqualTo(unpinnedMask);
      }
    }
  }

  /** The values of a JSON array of strings. */
  static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
