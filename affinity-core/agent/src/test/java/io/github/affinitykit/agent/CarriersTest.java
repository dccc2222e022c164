package io.github.affinitykit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.Seat;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The carriers rule: what is refused (one line in the house form), how it is kept apart from the
 * thread-name rules, the group it builds and the scheduler's size it sets.
 */
class CarriersTest {
  private final List<String> errors = new ArrayList<>();

  @TempDir Path dir;

  @Test
  void shouldRefuseOptionsThatAreNotOneCarrierPerCpu() {
    assertThat(Carriers.refusal("cpus:2-3,count:2", 25, true, 0))
        .contains(
            "carriers: count:2 (expected: cpus, placement, memory or isolate: one carrier per CPU"
                + " of the group, more carriers on all its CPUs)");
    assertThat(Carriers.refusal("cpus:2-3, runout:SHARE", 25, true, 0))
        .hasValueSatisfying(e -> assertThat(e).startsWith("carriers: runout:SHARE (expected: "));
    assertThat(Carriers.refusal("explicit:1,2", 25, true, 0)).isPresent();
    assertThat(Carriers.refusal("cpus:2-3,placement:DIFFERENT_CORE,memory:local", 25, true, 0))
        .isEmpty();
  }

  @Test
  void shouldRefuseBeforeJdk21WhenAttachedOrOnceTheSchedulerRuns() {
    assertThat(Carriers.refusal("cpus:1", 17, true, 0))
        .contains(
            "carriers: cpus:1 (expected: JDK 21 or later, which has virtual threads; this is JDK"
                + " 17)");
    assertThat(Carriers.refusal("cpus:1", 21, false, 0))
        .hasValueSatisfying(
            e ->
                assertThat(e)
                    .startsWith(
                        "carriers: cpus:1 (expected: the rule at JVM start, -javaagent:"
                            + "affinity-agent.jar=carriers=...: the virtual-thread scheduler reads"
                            + " its size once"));
    assertThat(Carriers.refusal("cpus:1", 25, true, 2))
        .contains(
            "carriers: cpus:1 (expected: a rule given before the first virtual thread; the"
                + " scheduler runs 2 carriers already)");
  }

  @Test
  void shouldKeepTheCarriersRuleApartFromThreadNames() {
    ThreadRules rules =
        ThreadRules.parse(
            "carriers=cpus:1;carriers=cpus:0;worker-*=cpus:0;x=bad",
            (glob, rule) -> {
              if (rule.contains("bad")) {
                throw new IllegalArgumentException(glob + ": " + rule + " (expected: good)");
              }
              return null;
            },
            errors::add);
    assertThat(rules.carriers()).map(ThreadRules.Rule::text).contains("cpus:1");
    assertThat(rules.rules()).extracting(ThreadRules.Rule::glob).containsExactly("worker-*");
    assertThat(rules.match("carriers")).as("names no thread").isEmpty();
    assertThat(rules.match(new Thread("carriers"))).isEmpty();
    assertThat(rules.match(new Thread("worker-1")))
        .map(ThreadRules.Rule::glob)
        .contains("worker-*");
    assertThat(rules).hasToString("[worker-*=cpus:0, carriers=cpus:1]");
    assertThat(errors)
        .containsExactly(
            "carriers: cpus:0 (expected: one carriers rule)", "x: bad (expected: good)");
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldRunCarriersBeyondTheGroupsCpusOnAllOfThem() {
    CpuGroup group = Carriers.build(kit(), "cpus:0");
    try {
      Seat first = group.join("ForkJoinPool-1-worker-1");
      Seat second = group.join("ForkJoinPool-1-worker-2");
      assertThat(first.status()).as("%s", first).isEqualTo(LeaseStatus.PINNED);
      assertThat(first.cpu()).isZero();
      assertThat(second.status()).isEqualTo(LeaseStatus.UNPINNED);
      assertThat(second.reason()).endsWith("runs unpinned on CPUs 0");
    } finally {
      group.close();
    }
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldSizeTheSchedulerUnlessTheUserDid() {
    String was = System.clearProperty(Carriers.PARALLELISM);
    try {
      CpuGroup group = kit().group(Carriers.GLOB).rule("cpus:0").build();
      assertThat(Carriers.size(group))
          .isEqualTo(
              "carriers: jdk.virtualThreadScheduler.parallelism=1, one carrier pinned per CPU of"
                  + " 0; more carriers, to cover blocking, run on CPUs 0");
      assertThat(System.getProperty(Carriers.PARALLELISM)).isEqualTo("1");
      System.setProperty(Carriers.PARALLELISM, "3");
      assertThat(Carriers.size(group))
          .isEqualTo(
              "carriers: jdk.virtualThreadScheduler.parallelism=3 set by the user wins over the"
                  + " group's 1 CPUs 0: the first 1 carriers pinned, one per CPU; more carriers,"
                  + " to cover blocking, run on CPUs 0");
      assertThat(System.getProperty(Carriers.PARALLELISM)).isEqualTo("3");
    } finally {
      if (was == null) {
        System.clearProperty(Carriers.PARALLELISM);
      } else {
        System.setProperty(Carriers.PARALLELISM, was);
      }
    }
  }

  private AffinityKit kit() {
    return AffinityKit.create(
        HostCpus.probe(), AffinityBackend.detect(), CpuReservations.inDirectory(dir));
  }
}
