package io.github.affinitykit.isolation;

import static io.github.affinitykit.isolation.IsolatorPlanTest.dir;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cpu.CpuSet;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The paths a journal may name are those the planners write: every step of every mechanism, planned
 * on fixture trees, passes (so a legitimate recovery is never refused) and round-trips through a
 * journal; a planted path does not, and refuses the whole journal.
 */
class WritableTest {
  private static final String ID = Owner.jvmId();

  /** Plans {@code m} on {@code t} and checks every path; returns them. */
  private static List<String> planned(IsolationTree t, Path dir, Mechanism m, Set<Integer> owners)
      throws IOException {
    Isolator isolator = Isolator.at(t.root(), new TreeAffinity(t.root()), dir.resolve("journal"));
    Scene s = isolator.scene(CpuSet.of(3), owners);
    List<Step> steps = new Isolating(isolator, s).steps(m);
    Writable writable = Writable.of(s.files().fs());
    List<String> paths = new ArrayList<>();
    steps.forEach(step -> paths.addAll(step.paths()));
    assertThat(paths).as(m + " plans paths").isNotEmpty();
    assertThat(paths)
        .as(m + ": every planned path passes")
        .allSatisfy(p -> assertThat(writable.refusal(p)).as(p).isEmpty());
    Journal j = new Journal(s.self(), s.cpus(), s.housekeeping(), m, steps);
    Path file = Journal.file(dir.resolve("journal"), s.self());
    j.write(file);
    assertThat(Journal.read(file, writable)).as(m + ": read back whole").isEqualTo(j);
    return paths;
  }

  @Test
  void shouldPassEveryPathEachMechanismPlans(TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree shield = IsolationTree.create(dir.resolve("shield"), 4).typical();
    assertThat(planned(shield, dir.resolve("a"), Mechanism.AFFINITY_SHIELD, Set.of()))
        .contains(
            "/proc/irq/24/smp_affinity",
            "/proc/irq/default_smp_affinity",
            "/sys/devices/virtual/workqueue/cpumask");

    IsolationTree root = IsolationTree.create(dir.resolve("v2"), 4).typical().cgroupV2("/", "cpu");
    root.task(400, 401, "pinned", 0, "3");
    String cg = "/sys/fs/cgroup/affinitykit-" + ID;
    assertThat(planned(root, dir.resolve("b"), Mechanism.CGROUP_V2_PARTITION, Set.of(401)))
        .contains(
            cg,
            cg + "/cgroup.threads",
            cg + "/cpuset.cpus.partition",
            "/sys/fs/cgroup/cgroup.subtree_control",
            "/sys/fs/cgroup/cgroup.threads");

    IsolationTree deep =
        IsolationTree.create(dir.resolve("deep"), 4).typical().cgroupV2("/system/svc", "cpuset");
    deep.file("sys/fs/cgroup/system/cpuset.cpus.exclusive", "")
        .file("sys/fs/cgroup/system/svc/cpuset.cpus.exclusive", "")
        .file("sys/fs/cgroup/system/svc/cgroup.subtree_control", "");
    assertThat(planned(deep, dir.resolve("c"), Mechanism.CGROUP_V2_REMOTE_PARTITION, Set.of()))
        .contains(
            "/sys/fs/cgroup/system/cpuset.cpus.exclusive",
            "/sys/fs/cgroup/system/svc/affinitykit-" + ID + "/cpuset.cpus.exclusive");

    IsolationTree v1 =
        IsolationTree.create(dir.resolve("v1"), 4).typical().cgroupV1("1\n20\n200\n201\n11");
    v1.task(400, 401, "pinned", 0, "3");
    String home = "/sys/fs/cgroup/cpuset";
    assertThat(planned(v1, dir.resolve("d"), Mechanism.CGROUP_V1_CPUSET, Set.of(401)))
        .contains(
            home + "/affinitykit-" + ID + "-iso/tasks",
            home + "/affinitykit-" + ID + "-rest/cpuset.mems",
            home + "/tasks");
  }

  @Test
  void shouldRefuseAPlantedPathAndDotDotAndFilesOfOtherCgroups() {
    Writable w = new Writable(List.of("/sys/fs/cgroup"), List.of("/dev/cpuset"));
    assertThat(w.refusal("/proc/irq/7/smp_affinity_list")).isEmpty();
    assertThat(w.refusal("/sys/fs/cgroup/a/affinitykit-" + ID + "/cgroup.type")).isEmpty();
    for (String planted :
        List.of(
            "/etc/shadow",
            "/root/victim",
            "/proc/irq/24/../../../etc/shadow",
            "/proc/irq/24/smp_affinity/..",
            "/proc/irq/x/smp_affinity",
            "/proc/irq//24/smp_affinity",
            "/proc/sys/kernel/core_pattern",
            "sys/fs/cgroup/cgroup.subtree_control",
            "/sys/fs/cgroup/../../etc/cgroup.type",
            "/sys/fs/cgroup/system/memory.max",
            "/sys/fs/cgroup/system/cgroup.procs",
            "/sys/fs/cgroup/cpuset.cpus.exclusive",
            "/sys/fs/cgroup/affinitykit-" + ID + "/memory.max",
            "/sys/fs/cgroup/affinitykit-" + ID + "-iso",
            "/dev/cpuset/affinitykit-" + ID,
            "/dev/cpuset/affinitykit-" + ID + "-rest/cgroup.subtree_control",
            "/sys/fs/cgroupx/cgroup.type",
            "/sys/kernel/mm/transparent_hugepage/enabled")) {
      assertThat(w.refusal(planted))
          .as(planted)
          .hasValueSatisfying(
              why ->
                  assertThat(why)
                      .startsWith("journal path: " + planted + " (expected: an isolation's own"));
    }
  }

  @Test
  void shouldNotLetAPlannerBuildAPathTheRuleRefuses() {
    assertThatThrownBy(() -> Writable.kitFile("/sys/fs/cgroup/affinitykit-" + ID, "memory.max"))
        .hasMessageStartingWith("cgroup file: memory.max (expected: an isolation's own");
    assertThatThrownBy(() -> Writable.homeFile("/sys/fs/cgroup", "cgroup.procs"))
        .hasMessageStartingWith("cgroup file: cgroup.procs (expected:");
  }
}
