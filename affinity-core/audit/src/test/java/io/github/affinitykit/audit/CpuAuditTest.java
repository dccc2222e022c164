package io.github.affinitykit.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.audit.CpuVerdict.Intruder;
import io.github.affinitykit.audit.CpuVerdict.Kind;
import io.github.affinitykit.audit.CpuVerdict.Verdict;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.testkit.Fixtures;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The audit's rules on the seed machine's tree (isolcpus=19-23, siblings n±12) and fake scans. */
class CpuAuditTest {
  private static final HostCpus E5 = HostCpus.probe(Fixtures.root(Fixtures.E5));
  private static final int SELF = 50;
  private static final long KTHREAD = TaskSample.PF_KTHREAD | TaskSample.PF_NO_SETAFFINITY;

  private static TaskSample task(
      int pid, int tid, String name, long flags, long runNs, int cpu, String allowed) {
    return new TaskSample(
        pid, tid, name, 'R', flags, runNs, 0, runNs, 0, 0, 0, 0, cpu, CpuSet.parse(allowed));
  }

  /** Idle-ish system: our pinned threads, per-CPU kthreads, a shell allowed on 0-18. */
  private static List<TaskSample> base(long t) {
    return List.of(
        task(SELF, SELF, "java", 0, 10 * t, 0, "0-18"),
        task(SELF, 101, "critical-0", 0, 1000 * t, 20, "20"),
        task(SELF, 102, "critical-1", 0, 1000 * t, 21, "21"),
        task(2, 201, "ksoftirqd/20", KTHREAD, 0, 20, "20"),
        task(2, 202, "ksoftirqd/21", KTHREAD, 0, 21, "21"),
        task(300, 300, "bash", 0, 5, 3, "0-18"));
  }

  private static CpuAudit audit(CpuSet cpus, List<TaskSample> before, List<TaskSample> after) {
    return CpuAudit.evaluate(
        E5,
        cpus,
        Duration.ofMillis(100),
        List.of(ProcScan.of(0, before), ProcScan.of(100_000_000, after)),
        Set.of(),
        SELF);
  }

  private static List<TaskSample> plus(List<TaskSample> base, TaskSample... more) {
    List<TaskSample> out = new java.util.ArrayList<>(base);
    out.addAll(List.of(more));
    return out;
  }

  @Test
  void shouldFindAnIsolatedCpuExclusiveWhenOnlyItsOwnerAndPerCpuKthreadsAreThere() {
    CpuVerdict v = audit(CpuSet.of(21), base(1), base(2)).verdict(21);

    assertThat(v.verdict()).isEqualTo(Verdict.EXCLUSIVE);
    assertThat(v.intruders()).isEmpty();
    assertThat(v.notes()).singleElement().asString().contains("ksoftirqd/21");
  }

  @Test
  void shouldNoteButNotBlamePerCpuKernelThreadsThatRanOnTheCpuOrItsSibling() {
    // seen live on an isolcpus guest: vmstat's kworker and ksoftirqd run briefly on isolated CPUs
    List<TaskSample> before =
        plus(
            base(1),
            task(2, 203, "kworker/21:1", KTHREAD, 0, 21, "21"),
            task(2, 204, "kworker/9:1", KTHREAD, 0, 9, "9"));
    List<TaskSample> after =
        plus(
            List.of(
                base(2).get(0),
                base(2).get(1),
                base(2).get(2),
                task(2, 201, "ksoftirqd/20", KTHREAD, 0, 20, "20"),
                task(2, 202, "ksoftirqd/21", KTHREAD, 39_000, 21, "21"),
                base(2).get(5)),
            task(2, 203, "kworker/21:1", KTHREAD, 342_000, 21, "21"),
            task(2, 204, "kworker/9:1", KTHREAD, 5_000, 9, "9"));

    CpuVerdict v = audit(CpuSet.of(21), before, after).verdict(21);

    assertThat(v.verdict()).isEqualTo(Verdict.EXCLUSIVE);
    assertThat(v.notes())
        .anySatisfy(
            n -> assertThat(n).contains("kworker/21:1 342 us").contains("ksoftirqd/21 39 us"));
  }

  @Test
  void shouldNameTheIntruderWhenAnotherTaskRanOnThePinnedCpu() {
    List<TaskSample> after = plus(base(2), task(300, 301, "noise", 0, 5_000_000, 21, "21"));
    List<TaskSample> before = plus(base(1), task(300, 301, "noise", 0, 1_000_000, 21, "21"));

    CpuVerdict v = audit(CpuSet.of(21), before, after).verdict(21);

    assertThat(v.verdict()).isEqualTo(Verdict.INTRUDED);
    assertThat(v.intruders())
        .filteredOn(i -> i.kind() == Kind.RAN_THERE)
        .singleElement()
        .satisfies(
            i -> {
              assertThat(i.tid()).isEqualTo(301);
              assertThat(i.name()).isEqualTo("noise");
              assertThat(i.detail()).isEqualTo("ran 4000 us here");
            });
    assertThat(v.intruders()).extracting(Intruder::kind).contains(Kind.ALLOWED_THERE);
  }

  @Test
  void shouldCallTheCoreSharedWhenTheSmtSiblingOfAnIsolatedCpuIsBusy() {
    // The seed's mistake: 20 is isolated, its hyper-thread sibling 8 is not and runs work.
    List<TaskSample> before = plus(base(1), task(400, 400, "build", 0, 0, 8, "0-18"));
    List<TaskSample> after = plus(base(2), task(400, 400, "build", 0, 90_000_000, 8, "0-18"));

    CpuVerdict v = audit(CpuSet.of(20), before, after).verdict(20);

    assertThat(v.verdict()).isEqualTo(Verdict.INTRUDED);
    assertThat(v.intruders())
        .singleElement()
        .satisfies(
            i -> {
              assertThat(i.kind()).isEqualTo(Kind.BUSY_SIBLING);
              assertThat(i.name()).isEqualTo("cpu 8");
              assertThat(i.detail()).contains("build(400)");
            });
  }

  @Test
  void shouldReportIrqsAndTasksAllowedOnAnOrdinaryCpu() {
    CpuVerdict v = audit(CpuSet.of(5), base(1), base(2)).verdict(5);

    assertThat(v.verdict()).isEqualTo(Verdict.INTRUDED);
    assertThat(v.intruders())
        .extracting(Intruder::kind, Intruder::name)
        .contains(
            org.assertj.core.groups.Tuple.tuple(Kind.IRQ, "irq 24"),
            org.assertj.core.groups.Tuple.tuple(Kind.ALLOWED_THERE, "java"),
            org.assertj.core.groups.Tuple.tuple(Kind.ALLOWED_THERE, "bash"));
  }

  @Test
  void shouldUseTheGivenOwnersInsteadOfThisJvmsPinnedThreads() {
    CpuAudit a =
        CpuAudit.evaluate(
            E5,
            CpuSet.of(21),
            Duration.ofMillis(100),
            List.of(ProcScan.of(0, base(1)), ProcScan.of(1, base(2))),
            Set.of(999),
            SELF);

    // critical-1 is no owner now: it ran there, and its process may be scheduled there.
    assertThat(a.verdict(21).intruders())
        .extracting(Intruder::kind, Intruder::pid, Intruder::tid)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(Kind.RAN_THERE, SELF, 102),
            org.assertj.core.groups.Tuple.tuple(Kind.ALLOWED_THERE, SELF, -1));
    assertThat(a.summary())
        .isEqualTo(
            "cpu 21: INTRUDED, 1 ran_there, 1 allowed_there; "
                + a.verdict(21).notes().get(0)
                + "\n");
  }

  @Test
  void shouldSayUnknownAndWhyWhenTheCpuIsOfflineOrProcIsEmpty() {
    HostCpus offline = HostCpus.probe(Fixtures.root("16em64t-4s2c2t-offlines"));
    int cpu = offline.topology().offline().first();
    CpuAudit a =
        CpuAudit.evaluate(
            offline,
            CpuSet.of(cpu),
            Duration.ofMillis(1),
            List.of(ProcScan.of(0, List.of()), ProcScan.of(1, List.of())),
            Set.of(),
            SELF);
    assertThat(a.verdict(cpu).verdict()).isEqualTo(Verdict.UNKNOWN);
    assertThat(a.verdict(cpu).notes()).singleElement().asString().contains("not online");

    CpuAudit empty =
        CpuAudit.evaluate(
            E5,
            CpuSet.of(1),
            Duration.ofMillis(1),
            List.of(ProcScan.of(0, List.of()), ProcScan.of(1, List.of())),
            Set.of(),
            SELF);
    assertThat(empty.verdict(1).verdict()).isEqualTo(Verdict.UNKNOWN);
    assertThat(empty.verdict(1).exclusive()).isFalse();
    assertThatThrownBy(() -> empty.verdict(2)).hasMessageContaining("cpu: 2");
    assertThatThrownBy(() -> CpuAudit.of(CpuSet.of(0), Duration.ZERO))
        .hasMessage("window: PT0S (expected: > 0)");
  }

  @Test
  void shouldNoteAnIrqWhoseMovePendsAndBlameItOnceItFiresThere(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path root) {
    io.github.affinitykit.core.testkit.FakeHost.create(root, 4, 1)
        .file("proc/irq/1/smp_affinity_list", "0-2")
        .file("proc/irq/1/effective_affinity_list", "3")
        .file("proc/irq/9/smp_affinity_list", "0-3")
        .file("proc/irq/9/effective_affinity_list", "0");
    HostCpus host = HostCpus.probe(root);
    io.github.affinitykit.core.internal.SysFs fs =
        new io.github.affinitykit.core.internal.SysFs(root);
    new io.github.affinitykit.core.testkit.FakeHostFiles(root)
        .file(
            "proc/interrupts",
            "           CPU0       CPU1       CPU2       CPU3\n  1:   0  0  0  9   IO-APIC   1-edge  i8042\nNMI:  0 0 0 0  Non-maskable interrupts");
    Interrupts first = Interrupts.read(fs);
    List<ProcScan> scans =
        List.of(
            ProcScan.of(0, List.of(task(SELF, 101, "owner", 0, 10, 3, "3"))),
            ProcScan.of(1, List.of(task(SELF, 101, "owner", 0, 20, 3, "3"))));

    CpuVerdict quiet =
        CpuAudit.evaluate(
                host, CpuSet.of(3), Duration.ofMillis(1), scans, Set.of(101), SELF, first, first)
            .verdict(3);
    assertThat(quiet.verdict()).isEqualTo(Verdict.EXCLUSIVE);
    assertThat(quiet.notes())
        .anyMatch(n -> n.startsWith("irq 1 is moving off (its affinity is 0-2"));

    new io.github.affinitykit.core.testkit.FakeHostFiles(root)
        .file(
            "proc/interrupts",
            "           CPU0       CPU1       CPU2       CPU3\n  1:   0  0  0  10   IO-APIC   1-edge  i8042");
    CpuVerdict fired =
        CpuAudit.evaluate(
                host,
                CpuSet.of(3),
                Duration.ofMillis(1),
                scans,
                Set.of(101),
                SELF,
                first,
                Interrupts.read(fs))
            .verdict(3);
    assertThat(fired.intruders()).extracting(Intruder::name).containsExactly("irq 1");
    assertThat(
            Interrupts.read(new io.github.affinitykit.core.internal.SysFs(root.resolve("none")))
                .firedSince(first, 1, 3))
        .isTrue();
  }

  @Test
  void shouldBuildAnAuditFromVerdictsReachedElsewhereAndRefuseACpuTwice() {
    CpuVerdict shared =
        new CpuVerdict(
            3,
            Verdict.INTRUDED,
            List.of(new Intruder(Kind.RAN_THERE, 9, 9, "bash", "1 ms")),
            List.of());
    CpuVerdict alone = new CpuVerdict(1, Verdict.EXCLUSIVE, List.of(), List.of());

    CpuAudit a = CpuAudit.from(Duration.ofMillis(50), List.of(shared, alone));

    assertThat(a.verdicts()).containsExactly(alone, shared);
    assertThat(a.summary()).isEqualTo("cpu 1: EXCLUSIVE\ncpu 3: INTRUDED, 1 ran_there\n");
    assertThatThrownBy(() -> CpuAudit.from(Duration.ofMillis(50), List.of(alone, alone)))
        .hasMessage("verdicts: cpu 1 twice (expected: one verdict per CPU)");
    assertThatThrownBy(() -> CpuAudit.from(Duration.ZERO, List.of()))
        .hasMessage("window: PT0S (expected: > 0)");
  }
}
