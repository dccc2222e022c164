package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** A group placed by a system property or an environment variable instead of the code. */
class GroupOverrideTest {
  @TempDir Path locks;

  private final Map<String, String> properties = new HashMap<>();
  private final Map<String, String> env = new HashMap<>();
  private final Map<String, String> taken = new ConcurrentHashMap<>();

  private java.util.Optional<GroupOverride.Placed> find(String name) {
    return GroupOverride.find(name, properties::get, env::get, taken);
  }

  @Test
  void shouldMapANameToItsVariable() {
    assertThat(GroupOverride.variable("net.io-2")).isEqualTo("AFFINITYKIT_GROUP_NET_IO_2");
    assertThat(GroupOverride.variable("kafka-handler-*"))
        .isEqualTo("AFFINITYKIT_GROUP_KAFKA_HANDLER__");
  }

  @Test
  void shouldReadThePropertyOrTheVariable() {
    assertThat(find("net")).isEmpty();
    env.put("AFFINITYKIT_GROUP_NET", "count:1");
    assertThat(find("net").orElseThrow().origin()).isEqualTo("AFFINITYKIT_GROUP_NET=count:1");
    properties.put("affinitykit.group.net", " count:1");
    assertThat(find("net").orElseThrow().origin()).isEqualTo("affinitykit.group.net=count:1");
  }

  @Test
  void shouldRefuseAPropertyAndAVariableThatDisagree() {
    properties.put("affinitykit.group.net", "count:1");
    env.put("AFFINITYKIT_GROUP_NET", "count:2");
    assertThatThrownBy(() -> find("net"))
        .hasMessage(
            "affinitykit.group.net: count:1 (expected: the rule of AFFINITYKIT_GROUP_NET,"
                + " count:2, or only one of them set)");
  }

  @Test
  void shouldRefuseTwoGroupsOnOneVariable() {
    env.put("AFFINITYKIT_GROUP_NET_IO", "count:1");
    assertThat(find("net-io")).isPresent();
    assertThat(find("net-io")).as("the same group again").isPresent();
    assertThatThrownBy(() -> find("net.io"))
        .hasMessage(
            "AFFINITYKIT_GROUP_NET_IO: group net.io (expected: one group per variable; group"
                + " net-io maps to it too: set affinitykit.group.net.io instead)");
  }

  @Test
  void shouldNameTheVariableInABadRule() {
    env.put("AFFINITYKIT_GROUP_X", "count:0");
    assertThatThrownBy(() -> find("x"))
        .hasMessage("AFFINITYKIT_GROUP_X: count:0 (expected: a positive number of CPUs)");
  }

  @Test
  @Timeout(30)
  @EnabledOnOs(OS.LINUX)
  void shouldMoveAGroupOfARealKitAndSaySo() {
    AffinityBackend backend = AffinityBackend.detect();
    assumeTrue(backend.isSupported(), backend.reason());
    assumeTrue(backend.getAffinity(0).containsAll(CpuSet.of(0, 1)), "needs CPUs 0 and 1");
    AffinityKit kit =
        AffinityKit.create(HostCpus.probe(), backend, CpuReservations.inDirectory(locks));
    String name = "override-test-" + ProcessHandle.current().pid();
    System.setProperty("affinitykit.group." + name, "cpus:1,count:1,runout:UNPINNED");
    try (CpuGroup group = kit.group(name).cpus(0, 0).build()) {
      Seat first = group.join();
      Seat second = group.join();
      assertThat(first.cpu()).as("the property moved it off the code's CPU 0").isEqualTo(1);
      assertThat(first.reason())
          .endsWith(
              "; placed by affinitykit.group."
                  + name
                  + "=cpus:1,count:1,runout:UNPINNED, not the code");
      assertThat(second.status()).isEqualTo(LeaseStatus.UNPINNED);
      assertThat(second.reason()).contains("count:1 held: 1");
      assertThat(group.toString()).contains("placed by affinitykit.group." + name);
      try (CpuLease lease = first.bindOnce()) {
        assertThat(backend.getAffinity(0)).isEqualTo(CpuSet.of(1));
        assertThat(lease.reason()).contains("not the code");
      }
      System.setProperty("affinitykit.group." + name, "count:0");
      assertThatThrownBy(() -> kit.group(name).build())
          .hasMessage(
              "affinitykit.group." + name + ": count:0 (expected: a positive number of CPUs)");
    } finally {
      System.clearProperty("affinitykit.group." + name);
    }
  }
}
