package io.github.affinitykit.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.affinitykit.core.cpu.CpuSet;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Runtime isolation live on one kernel (the subclasses: 6.1 and 6.12): each way of isolating CPU 3
 * of a 4-CPU guest with a busy unrelated process running, proved by the audit and undone field by
 * field; refused without permission. Each kernel runs one more (SingleThreadedShapesIT): 6.1 a live
 * isolation of another pid namespace left alone, 6.12 recovery after SIGKILL; both make the same
 * root partition on either kernel, so one kernel each keeps the single-threaded lanes short.
 */
abstract class IsolationShapeIT extends BootedShape {
  static final CpuSet ISOLATED = CpuSet.of(3);
  static final CpuSet HOUSEKEEPING = CpuSet.range(0, 2);

  /** The mechanism the JVM deep in {@code /system/svc} gets on this kernel. */
  abstract String deepMechanism();

  /**
   * Whether this kernel has cgroup v1 cpusets ({@code CONFIG_CPUSETS_V1}, not in Debian's 6.12).
   */
  abstract boolean cpusetV1();

  @Test
  void shouldIsolateWithCgroupV1CpusetsProveItAndPutEverythingBack() {
    if (cpusetV1()) {
      roundTrip("v1", "CGROUP_V1_CPUSET");
    } else {
      JsonNode d = guest.section("ways", "isolate-all").path("v1");
      assertThat(d.path("unavailable").asText())
          .as("mounting a v1 cpuset hierarchy on a kernel without CONFIG_CPUSETS_V1")
          .contains("mount -t cgroup -o cpuset")
          .contains("Invalid argument");
    }
  }

  @Test
  void shouldShieldByAffinityWithoutCgroupsProveItAndPutEverythingBack() {
    JsonNode d = roundTrip("shield", "AFFINITY_SHIELD");
    assertThat(texts(d.path("report").path("reasons")))
        .anyMatch(r -> r.contains("no cgroup2 filesystem mounted"))
        .anyMatch(r -> r.contains("no cgroup v1 cpuset hierarchy mounted"));
  }

  @Test
  void shouldMakeARootPartitionWhenTheJvmIsInTheRootCgroup() {
    JsonNode d = roundTrip("v2root", "CGROUP_V2_PARTITION");
    String cg = "";
    for (JsonNode c : d.path("report").path("changes")) {
      if (c.path("kind").asText().equals("CGROUP") && c.path("after").asText().equals("created")) {
        cg = c.path("name").asText();
        break;
      }
    }
    assertThat(cg).as("the cgroup made").matches("/sys/fs/cgroup/affinitykit-[0-9a-f]{16}");
    JsonNode during = d.path("during").path("files");
    assertThat(during.path(cg + "/cpuset.cpus.partition").asText()).isEqualTo("isolated\n");
    assertThat(during.path(cg + "/cgroup.type").asText()).isEqualTo("threaded\n");
    assertThat(during.path("/sys/fs/cgroup/cpuset.cpus.effective").asText()).isEqualTo("0-2\n");
    assertThat(d.path("ownerAllowed").asText()).isEqualTo("3");
  }

  @Test
  void shouldPlanThenRunACommandOnTheIsolatedCpuFromTheCommandLine() {
    JsonNode d = guest.section("ways", "isolate-all").path("cli");
    JsonNode plan = d.path("plan");
    assertThat(plan.path("status").asInt()).as(plan.path("err").asText()).isZero();
    assertThat(plan.path("out").path(0).path("status").asText()).isEqualTo("PLANNED");
    assertThat(plan.path("out").path(0).path("mechanism").asText())
        .isEqualTo("CGROUP_V2_PARTITION");
    JsonNode run = d.path("run");
    assertThat(run.path("status").asInt()).as(run.path("err").asText()).isZero();
    assertThat(run.path("out").path(0).path("status").asText()).isEqualTo("ISOLATED");
    assertThat(run.path("out").path(1).path("status").asText()).isEqualTo("RELEASED");
    assertThat(d.path("commandSaw").asText()).isEqualTo("Cpus_allowed_list:\t3");
    assertThat(d.path("doctor").path("isolations")).as("nothing left recorded").isEmpty();
  }

  @Test
  void shouldIsolateTheJvmDeepInAHierarchyAsThisKernelAllows() {
    JsonNode d = roundTrip("v2deep", deepMechanism());
    assertThat(d.path("report").path("reasons").toString()).contains("/system/svc");
  }

  @Test
  void shouldChangeNothingAndNameThePermissionWhenNotRoot() {
    JsonNode d = guest.section("refused", "isolate-refused");
    assertThat(d.path("uid").asText()).contains("65534");
    JsonNode r = d.path("report");
    assertThat(r.path("status").asText()).isEqualTo("REFUSED");
    assertThat(r.path("mechanism").asText()).isEqualTo("NONE");
    assertThat(r.path("refusal").asText())
        .startsWith("missing permission: CAP_SYS_NICE")
        .contains("/proc/irq/*/smp_affinity")
        .contains("/run/affinitykit");
    JsonNode dry = d.path("dryRun");
    assertThat(dry.path("status").asInt()).as("isolate --dry-run's exit status").isEqualTo(1);
    JsonNode plan = dry.path("out").path(0);
    assertThat(plan.path("status").asText()).isEqualTo("REFUSED");
    assertThat(plan.path("refusal").asText()).startsWith("missing permission: CAP_SYS_NICE");
    assertThat(plan.path("mechanism").asText()).as("the plan, without root").isNotEqualTo("NONE");
    assertThat(plan.path("changes")).as("the plan, without root").isNotEmpty();
    assertAsBefore(d.path("before"), d.path("after"));
  }

  /** The round trip's shared assertions; returns the section's data. */
  private JsonNode roundTrip(String run, String mechanism) {
    JsonNode d = guest.section("ways", "isolate-all").path(run);
    assertThat(d.has("error")).as("%s failed in the guest: %s", run, d.path("error")).isFalse();
    JsonNode r = d.path("report");
    assertThat(r.path("status").asText()).as(r.path("text").asText()).isEqualTo("ISOLATED");
    assertThat(r.path("mechanism").asText()).isEqualTo(mechanism);
    assertThat(r.path("housekeeping").asText()).isEqualTo("0-2");
    assertThat(d.path("journalExisted").asBoolean()).as("journal while isolated").isTrue();
    assertThat(r.path("bootCommandLine").asText())
        .isEqualTo("isolcpus=managed_irq,domain,3 nohz_full=3 rcu_nocbs=3 irqaffinity=0-2");
    assertThat(texts(r.path("residues"), "kind"))
        .contains("TICK", "RCU_CALLBACKS", "PER_CPU_KERNEL_THREADS");
    JsonNode audit = d.path("audit");
    assertThat(audit.path("verdict").asText())
        .as("audit of CPU 3: %s", audit)
        .isEqualTo("EXCLUSIVE");
    String noise = d.path("noisePid").asText();
    assertThat(d.path("during").path("tasks").path(noise).asText())
        .as("the noise process while isolated")
        .isEqualTo("0-2");
    assertThat(d.path("noiseGrewNs").asLong()).as("the noise kept running").isPositive();
    assertThat(HOUSEKEEPING.contains(d.path("noiseLastCpu").asInt())).isTrue();
    JsonNode rel = d.path("released");
    assertThat(rel.path("status").asText()).isEqualTo("RELEASED");
    assertThat(rel.path("failed")).as("nothing failed or left on release").isEmpty();
    assertThat(d.path("journalAfter").asBoolean()).as("journal after release").isFalse();
    assertThat(d.path("kitForgot").asBoolean()).isTrue();
    JsonNode before = d.path("before");
    JsonNode after = d.path("after");
    assertAsBefore(before, after);
    assertThat(after.path("tasks").path(noise).asText()).isEqualTo("0-3");
    assertThat(d.path("noiseGrewAfterNs").asLong()).isPositive();
    return d;
  }

  /**
   * The machine as before: every IRQ affinity and every cgroup or kernel file of {@code before} the
   * same in {@code after} (the guest's {@code MachineState} readings), and every task's mask
   * ({@link #assertSameTasks}).
   */
  static void assertAsBefore(JsonNode before, JsonNode after) {
    assertSame(before.path("irqs"), after.path("irqs"), "IRQ affinities");
    assertSame(before.path("files"), after.path("files"), "cgroup and kernel files");
    assertSameTasks(before, after);
  }

  /** Every field of {@code a} and {@code b} equal, differences listed. */
  static void assertSame(JsonNode a, JsonNode b, String what) {
    Map<String, String> diff = new TreeMap<>();
    for (Iterator<String> it = a.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!a.path(k).equals(b.path(k))) {
        diff.put(k, a.path(k).asText().strip() + " -> " + b.path(k).asText("(gone)").strip());
      }
    }
    for (Iterator<String> it = b.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!a.has(k)) {
        diff.put(k, "(new) " + b.path(k).asText().strip());
      }
    }
    assertThat(diff).as(what + " before -> after").isEmpty();
  }

  /**
   * Tasks present before and after have the same mask; tasks that ended or began are ignored, and
   * so are those the kernel moves itself (PF_NO_SETAFFINITY: workqueue workers and rescuers follow
   * their work; the isolation never writes them).
   */
  static void assertSameTasks(JsonNode beforeState, JsonNode afterState) {
    JsonNode before = beforeState.path("tasks");
    JsonNode after = afterState.path("tasks");
    JsonNode kernel = beforeState.path("kernelManaged");
    List<String> diff = new ArrayList<>();
    for (Iterator<String> it = before.fieldNames(); it.hasNext(); ) {
      String tid = it.next();
      if (after.has(tid) && !kernel.has(tid) && !after.path(tid).equals(before.path(tid))) {
        diff.add(tid + " " + before.path(tid).asText() + " -> " + after.path(tid).asText());
      }
    }
    assertThat(diff).as("task masks before -> after").isEmpty();
  }

  static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  static List<String> texts(JsonNode array, String field) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.path(field).asText()));
    return out;
  }
}
