package io.github.affinitykit.isolation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.testkit.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Plans on fixture trees under target/: the mechanism and why, the changes, what stays. */
class IsolatorPlanTest {
  static Path dir(TestInfo info) throws IOException {
    Path d =
        Paths.get("target", "isolation", info.getTestClass().orElseThrow().getSimpleName())
            .resolve(info.getTestMethod().orElseThrow().getName())
            .toAbsolutePath();
    if (Files.exists(d)) {
      try (var s = Files.walk(d)) {
        s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    return Files.createDirectories(d);
  }

  private static Isolator isolator(IsolationTree t, Path dir) {
    return Isolator.at(t.root(), new TreeAffinity(t.root()), dir.resolve("journal"));
  }

  @Test
  void shouldPlanAShieldWhenNoCgroupIsMountedAndSayWhyNotTheBetterOnes(TestInfo info)
      throws IOException {
    Path dir = dir(info);
    IsolationTree t = IsolationTree.create(dir.resolve("root"), 4).typical();
    Map<String, String> before = t.snapshot();

    IsolationReport r = isolator(t, dir).plan(CpuSet.of(3), Set.of());

    assertThat(r.status()).isEqualTo(IsolationStatus.PLANNED);
    assertThat(r.mechanism()).isEqualTo(Mechanism.AFFINITY_SHIELD);
    assertThat(r.housekeeping()).isEqualTo(CpuSet.range(0, 2));
    assertThat(r.reasons())
        .anyMatch(s -> s.contains("no cgroup2 filesystem mounted"))
        .anyMatch(s -> s.contains("no cgroup v1 cpuset hierarchy mounted"));
    assertThat(r.changes(Change.Kind.TASK))
        .extracting(Change::id)
        .containsExactly(1, 20, 200, 201); // not ksoftirqd/N, kworker/u, pinned-elsewhere
    assertThat(r.changes(Change.Kind.TASK))
        .allSatisfy(c -> assertThat(c.after()).isEqualTo("0-2"))
        .allSatisfy(c -> assertThat(c.outcome()).isEqualTo(Change.Outcome.PLANNED));
    assertThat(r.changes(Change.Kind.IRQ))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.id()).isEqualTo(24);
              assertThat(c.before()).isEqualTo("f\n");
              assertThat(c.after()).isEqualTo("7\n");
            });
    assertThat(r.changes(Change.Kind.FILE))
        .extracting(Change::name)
        .containsExactly(IrqPlan.DEFAULT_AFFINITY, IrqPlan.WORKQUEUE_MASK);
    assertThat(r.residues())
        .extracting(Residue::kind)
        .containsExactly(
            Residue.Kind.PER_CPU_KERNEL_THREADS,
            Residue.Kind.UNMOVABLE_TASKS,
            Residue.Kind.TICK,
            Residue.Kind.RCU_CALLBACKS);
    assertThat(r.residues().get(0).detail()).contains("ksoftirqd/3");
    assertThat(r.bootCommandLine())
        .isEqualTo("isolcpus=managed_irq,domain,3 nohz_full=3 rcu_nocbs=3 irqaffinity=0-2");
    assertThat(t.snapshot()).as("a plan changes nothing").isEqualTo(before);
    assertThat(dir.resolve("journal")).doesNotExist();
  }

  @Test
  void shouldPlanARootPartitionWithOnlyTheOwnerInsideWhenTheJvmIsInTheRootCgroup(TestInfo info)
      throws IOException {
    Path dir = dir(info);
    IsolationTree t = IsolationTree.create(dir.resolve("root"), 4).typical().cgroupV2("/", "cpu");
    t.task(400, 401, "pinned", 0, "3");

    IsolationReport r = isolator(t, dir).plan(CpuSet.of(3), Set.of(401));

    assertThat(r.mechanism()).isEqualTo(Mechanism.CGROUP_V2_PARTITION);
    String cg = "/sys/fs/cgroup/affinitykit-" + Owner.jvmId();
    assertThat(r.changes(Change.Kind.CGROUP))
        .extracting(c -> c.name() + "=" + c.after())
        .containsExactly(
            cg + "=created",
            cg + "/cgroup.type=threaded",
            "/sys/fs/cgroup/cgroup.subtree_control=+cpuset",
            cg + "/cpuset.cpus=3",
            cg + "/cpuset.cpus.partition=isolated");
    assertThat(r.changes(Change.Kind.THREAD))
        .singleElement()
        .satisfies(c -> assertThat(c.id()).isEqualTo(401));
    assertThat(r.changes(Change.Kind.TASK))
        .as("the kernel rewrites every movable mask: all recorded, the owner not")
        .extracting(Change::id)
        .containsExactly(1, 20, 200, 201, 300)
        .doesNotContain(401);
    assertThat(r.changes(Change.Kind.TASK))
        .allSatisfy(c -> assertThat(c.detail()).isEqualTo("by the kernel"));
  }

  @Test
  void shouldPlanARemotePartitionDeepInAHierarchyWhenTheKernelHasExclusiveCpus(TestInfo info)
      throws IOException {
    Path dir = dir(info);
    IsolationTree t =
        IsolationTree.create(dir.resolve("root"), 4).typical().cgroupV2("/system/svc", "cpuset");
    t.file("sys/fs/cgroup/system/cpuset.cpus.exclusive", "")
        .file("sys/fs/cgroup/system/svc/cpuset.cpus.exclusive", "")
        .file("sys/fs/cgroup/system/svc/cgroup.subtree_control", "");

    IsolationReport r = isolator(t, dir).plan(CpuSet.of(2, 3), Set.of());

    assertThat(r.mechanism()).isEqualTo(Mechanism.CGROUP_V2_REMOTE_PARTITION);
    assertThat(r.reasons()).anyMatch(s -> s.contains("not the root cgroup: a remote partition"));
    String svc = "/sys/fs/cgroup/system/svc";
    String cg = svc + "/affinitykit-" + Owner.jvmId();
    assertThat(r.changes(Change.Kind.CGROUP))
        .extracting(c -> c.name() + "=" + c.after().strip())
        .containsExactly(
            cg + "=created",
            cg + "/cgroup.type=threaded",
            svc + "/cgroup.subtree_control=+cpuset",
            "/sys/fs/cgroup/system/cpuset.cpus.exclusive=2-3",
            svc + "/cpuset.cpus.exclusive=2-3",
            cg + "/cpuset.cpus.exclusive=2-3",
            cg + "/cpuset.cpus=2-3",
            cg + "/cpuset.cpus.partition=isolated");
  }

  @Test
  void shouldFallBackPastAPartitionAKernelWithoutRemotePartitionsCannotMakeDeepInAHierarchy(
      TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree t =
        IsolationTree.create(dir.resolve("root"), 4).typical().cgroupV2("/system/svc", "cpuset");
    t.file("sys/fs/cgroup/system/svc/cpuset.cpus", "");

    IsolationReport r = isolator(t, dir).plan(CpuSet.of(3), Set.of());

    assertThat(r.mechanism()).isEqualTo(Mechanism.AFFINITY_SHIELD);
    assertThat(r.reasons())
        .anyMatch(s -> s.contains("cpuset.cpus.exclusive, Linux 6.7+") && s.contains("lacks"));
  }

  @Test
  void shouldPlanCgroupV1CpusetsMovingTheJvmsCpusetAndShieldingTheRest(TestInfo info)
      throws IOException {
    Path dir = dir(info);
    IsolationTree t =
        IsolationTree.create(dir.resolve("root"), 4).typical().cgroupV1("1\n20\n200\n201\n11");
    t.task(400, 401, "pinned", 0, "3");

    IsolationReport r = isolator(t, dir).plan(CpuSet.of(3), Set.of(401));

    assertThat(r.mechanism()).isEqualTo(Mechanism.CGROUP_V1_CPUSET);
    assertThat(r.reasons()).anyMatch(s -> s.contains("no cgroup2 filesystem mounted"));
    String home = "/sys/fs/cgroup/cpuset";
    String iso = home + "/affinitykit-" + Owner.jvmId() + "-iso";
    String rest = home + "/affinitykit-" + Owner.jvmId() + "-rest";
    assertThat(r.changes(Change.Kind.CGROUP))
        .extracting(c -> c.name() + "=" + c.after())
        .containsExactly(
            iso + "=created",
            iso + "/cpuset.cpus=3",
            iso + "/cpuset.mems=0",
            rest + "=created",
            rest + "/cpuset.cpus=0-2",
            rest + "/cpuset.mems=0");
    assertThat(r.changes(Change.Kind.THREAD))
        .extracting(c -> c.id() + ">" + c.after())
        .as("kswapd0 (20) stays, ksoftirqd/1 (11) is unmovable")
        .containsExactly("1>" + rest, "200>" + rest, "201>" + rest, "401>" + iso);
    assertThat(r.changes(Change.Kind.TASK))
        .as("kernel threads (cgroup v1 refuses kthreadd) narrowed by affinity")
        .filteredOn(c -> c.detail().isEmpty())
        .extracting(Change::id)
        .containsExactly(20);
  }

  @Test
  void shouldRefuseNamingThePermissionWhenTheProcessLacksCapSysNice(TestInfo info)
      throws IOException {
    Path dir = dir(info);
    IsolationTree t = IsolationTree.create(dir.resolve("root"), 4).typical();
    t.self("0000000000000000", "0-3");

    IsolationReport r = isolator(t, dir).plan(CpuSet.of(3), Set.of());

    assertThat(r.status()).isEqualTo(IsolationStatus.REFUSED);
    assertThat(r.refusal()).startsWith("missing permission: CAP_SYS_NICE");
    assertThat(r.mechanism())
        .as("the plan still shows, readable without root")
        .isEqualTo(Mechanism.AFFINITY_SHIELD);
    assertThat(r.changes(Change.Kind.TASK)).hasSize(4);
    assertThat(r.bootCommandLine()).startsWith("isolcpus=");
  }

  @Test
  void shouldRefuseWhenAnotherProcessIsPinnedOnlyToTheCpus(TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree t = IsolationTree.create(dir.resolve("root"), 4).typical();

    IsolationReport r = isolator(t, dir).plan(CpuSet.of(1), Set.of());

    assertThat(r.status()).isEqualTo(IsolationStatus.REFUSED);
    assertThat(r.refusal()).contains("pid 300 thread pinned-elsewhere(300) may run only on CPUs 1");
  }

  @Test
  void shouldRejectCpusThatAreNotOnlineOrLeaveNothing(TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree t = IsolationTree.create(dir.resolve("root"), 4).typical();
    Isolator isolator = isolator(t, dir);

    assertThatThrownBy(() -> isolator.plan(CpuSet.of(7), Set.of()))
        .hasMessage("cpus: \"7\" (expected: one or more online CPUs of 0-3)");
    assertThatThrownBy(() -> isolator.plan(CpuSet.range(0, 3), Set.of()))
        .hasMessage(
            "cpus: 0-3 (expected: at least one online CPU left to the rest of the machine)");
    assertThatThrownBy(() -> isolator.mechanisms(Set.of(Mechanism.NONE)))
        .hasMessage("mechanisms: [NONE] (expected: at least one but NONE)");
  }

  @Test
  void shouldHonourTheMechanismsTheCallerAllows(TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree t =
        IsolationTree.create(dir.resolve("root"), 4).typical().cgroupV2("/", "cpuset");

    IsolationReport r =
        isolator(t, dir)
            .mechanisms(EnumSet.of(Mechanism.AFFINITY_SHIELD))
            .plan(CpuSet.of(3), Set.of());

    assertThat(r.mechanism()).isEqualTo(Mechanism.AFFINITY_SHIELD);
    assertThat(r.reasons()).contains("CGROUP_V2_PARTITION: not allowed by the caller");
  }

  @Test
  void shouldSayWhatStaysOnTheSeedMachineAndMergeItsBootLine(TestInfo info) throws IOException {
    Path dir = dir(info);
    Path root = dir.resolve("e5");
    copy(Fixtures.root(Fixtures.E5), root);
    IsolationTree t = IsolationTree.create(dir.resolve("unused"), 1);
    new io.github.affinitykit.core.testkit.FakeHostFiles(root)
        .file(
            "proc/self/status",
            "Name:\tjava\nCpus_allowed_list:\t0-18\nCapEff:\t" + IsolationTree.ALL_CAPS);

    IsolationReport r =
        Isolator.at(root, new TreeAffinity(root), dir.resolve("journal"))
            .plan(CpuSet.of(7), Set.of());

    assertThat(t.root()).exists();
    assertThat(r.residues())
        .extracting(Residue::kind)
        .containsExactly(Residue.Kind.TICK, Residue.Kind.RCU_CALLBACKS, Residue.Kind.SMT_SIBLING);
    assertThat(r.residues().get(2).detail()).contains("CPU 7 shares its core with 19");
    assertThat(r.bootCommandLine())
        .isEqualTo(
            "isolcpus=managed_irq,domain,7,19-23 nohz_full=7,19-23 rcu_nocbs=7,19-23"
                + " irqaffinity=0-6,8-18");
    assertThat(r.changes(Change.Kind.IRQ)).isEmpty(); // its IRQ files list CPUs, no masks
    assertThat(List.of(r.text().split("\n"))).anyMatch(l -> l.startsWith("  at boot: isolcpus="));
  }

  static void copy(Path from, Path to) throws IOException {
    try (var s = Files.walk(from)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path q = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(q);
        } else if (Files.isRegularFile(p)) {
          Files.copy(p, q);
        }
      }
    }
  }
}
