package io.github.affinitykit.isolation;

import static io.github.affinitykit.isolation.IsolatorPlanTest.dir;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Isolates and releases on fixture trees under target/ (never on this host): the journal is on disk
 * before the first change, and closing puts every file back byte for byte.
 */
class IsolatorApplyTest {
  private static final String ID = Owner.jvmId();

  @Test
  void shouldShieldThenPutEveryMaskIrqAndFileBackByteForByte(TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree t = IsolationTree.create(dir.resolve("root"), 4).typical();
    Map<String, String> before = t.snapshot();
    Path journal = dir.resolve("journal").resolve("isolation-" + ID + ".journal");
    List<String> unjournaled = new ArrayList<>();
    TreeAffinity affinity =
        new TreeAffinity(t.root())
            .before(
                tid -> {
                  try {
                    if (!Files.readString(journal).contains("task " + tid + " " + tid + " ")
                        && !Files.readString(journal).contains(" " + tid + " " + (1000 + tid))) {
                      unjournaled.add("tid " + tid);
                    }
                  } catch (IOException e) {
                    unjournaled.add("tid " + tid + ": no journal: " + e);
                  }
                });
    Isolator isolator = Isolator.at(t.root(), affinity, dir.resolve("journal"));

    Isolation iso = isolator.isolate(CpuSet.of(3), Set.of());

    IsolationReport r = iso.report();
    assertThat(r.status()).as(r.text()).isEqualTo(IsolationStatus.ISOLATED);
    assertThat(iso.isActive()).isTrue();
    assertThat(r.mechanism()).isEqualTo(Mechanism.AFFINITY_SHIELD);
    assertThat(r.journal()).isEqualTo(journal.toString());
    assertThat(unjournaled).as("every task was journaled before it was moved").isEmpty();
    assertThat(affinity.calls()).containsExactly("1->0-2", "20->0-2", "200->0-2", "201->0-2");
    assertThat(t.mask(200, 201)).isEqualTo(CpuSet.range(0, 2));
    assertThat(t.mask(13, 13)).as("ksoftirqd/3 stays").isEqualTo(CpuSet.of(3));
    assertThat(t.read("proc/irq/24/smp_affinity")).isEqualTo("7\n");
    assertThat(t.read("proc/irq/default_smp_affinity")).isEqualTo("7\n");
    assertThat(t.read("sys/devices/virtual/workqueue/cpumask")).isEqualTo("7\n");
    assertThat(r.count(Change.Kind.TASK, Change.Outcome.DONE)).isEqualTo(4);
    assertThat(r.residues()).extracting(Residue::kind).contains(Residue.Kind.IRQS_IN_FLIGHT);
    assertThat(journal).exists();

    iso.close();
    iso.close(); // idempotent

    assertThat(iso.isActive()).isFalse();
    IsolationReport back = iso.released();
    assertThat(back.status()).isEqualTo(IsolationStatus.RELEASED);
    assertThat(back.changes())
        .allSatisfy(c -> assertThat(c.outcome()).isEqualTo(Change.Outcome.RESTORED));
    assertThat(t.snapshot()).isEqualTo(before);
    assertThat(journal).doesNotExist();
    try (Isolation again = isolator.isolate(CpuSet.of(3), Set.of())) {
      assertThat(again.report().status())
          .as("the CPU's reservation was freed")
          .isEqualTo(IsolationStatus.ISOLATED);
    }
    assertThat(t.snapshot()).isEqualTo(before);
  }

  @Test
  void shouldLeaveAMaskSomeoneElseChangedWhileIsolatedAndSaySo(TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree t = IsolationTree.create(dir.resolve("root"), 4).typical();
    TreeAffinity affinity = new TreeAffinity(t.root());
    Isolation iso =
        Isolator.at(t.root(), affinity, dir.resolve("journal")).isolate(CpuSet.of(3), Set.of());
    t.task(200, 201, "daemon-worker", 0, "1");
    t.file("proc/1/task/1/status", "Name:\tinit"); // init's status unreadable: as if it ended

    iso.close();

    List<Change> tasks = iso.released().changes(Change.Kind.TASK);
    assertThat(tasks)
        .filteredOn(c -> c.id() == 201)
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.outcome()).isEqualTo(Change.Outcome.LEFT);
              assertThat(c.detail()).isEqualTo("now 1: changed by someone else while isolated");
            });
    assertThat(tasks)
        .filteredOn(c -> c.id() == 1)
        .singleElement()
        .satisfies(c -> assertThat(c.outcome()).isEqualTo(Change.Outcome.GONE));
    assertThat(t.mask(200, 201)).isEqualTo(CpuSet.of(1));
    assertThat(t.mask(200, 200)).isEqualTo(CpuSet.range(0, 3));
  }

  @Test
  void shouldMakeARootPartitionHoldingTheOwnerAndRemoveItOnClose(TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree t =
        IsolationTree.create(dir.resolve("root"), 4).typical().cgroupV2("/", "cpuset cpu");
    t.task(400, 401, "pinned", 0, "3").file("sys/fs/cgroup/cgroup.threads", "1\n20\n200\n201\n401");
    Map<String, String> before = t.snapshot();
    String cg = "sys/fs/cgroup/affinitykit-" + ID;

    Isolation iso =
        Isolator.at(t.root(), new TreeAffinity(t.root()), dir.resolve("journal"))
            .isolate(CpuSet.of(3), Set.of(401));

    assertThat(iso.report().mechanism())
        .as(iso.report().text())
        .isEqualTo(Mechanism.CGROUP_V2_PARTITION);
    assertThat(t.read(cg + "/cgroup.type")).isEqualTo("threaded");
    assertThat(t.read(cg + "/cpuset.cpus")).isEqualTo("3");
    assertThat(t.read(cg + "/cgroup.threads")).isEqualTo("401");
    assertThat(t.read(cg + "/cpuset.cpus.partition")).isEqualTo("isolated");
    assertThat(iso.admit(402).outcome()).isEqualTo(Change.Outcome.DONE);
    assertThat(t.read(cg + "/cgroup.threads")).isEqualTo("402");
    assertThat(iso.dismiss(402).detail()).isEqualTo("moved to /sys/fs/cgroup");

    iso.close();

    assertThat(t.root().resolve(cg)).doesNotExist();
    Map<String, String> after = t.snapshot();
    after.remove("sys/fs/cgroup/cgroup.threads"); // a plain file here: the kernel's is a set
    before.remove("sys/fs/cgroup/cgroup.threads");
    assertThat(after).isEqualTo(before);
    assertThat(iso.admit(403).detail()).isEqualTo("not isolated");
  }

  @Test
  void shouldUndoACgroupTheKernelRefusesAndFallBackToTheShield(TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree t =
        IsolationTree.create(dir.resolve("root"), 4).typical().cgroupV2("/", "cpuset");
    t.file("sys/fs/cgroup/affinitykit-" + ID, "a file where the cgroup would go");
    Map<String, String> before = t.snapshot();

    try (Isolation iso =
        Isolator.at(t.root(), new TreeAffinity(t.root()), dir.resolve("journal"))
            .isolate(CpuSet.of(3), Set.of())) {
      assertThat(iso.report().mechanism()).isEqualTo(Mechanism.AFFINITY_SHIELD);
      assertThat(iso.report().reasons())
          .anyMatch(s -> s.startsWith("CGROUP_V2_PARTITION tried: ") && s.endsWith("; undone"))
          .contains("chosen: AFFINITY_SHIELD");
    }
    assertThat(t.snapshot()).isEqualTo(before);
  }

  @Test
  void shouldChangeNothingWithoutPermission(TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree t = IsolationTree.create(dir.resolve("root"), 4).typical();
    t.self("0000000000800000".replace('8', '0'), "0-3");
    Map<String, String> before = t.snapshot();
    TreeAffinity affinity = new TreeAffinity(t.root());

    try (Isolation iso =
        Isolator.at(t.root(), affinity, dir.resolve("journal")).isolate(CpuSet.of(3), Set.of())) {
      assertThat(iso.report().status()).isEqualTo(IsolationStatus.REFUSED);
      assertThat(iso.report().refusal()).contains("CAP_SYS_NICE");
      assertThat(iso.isActive()).isFalse();
    }
    assertThat(affinity.calls()).isEmpty();
    assertThat(t.snapshot()).isEqualTo(before);
    assertThat(dir.resolve("journal")).doesNotExist();
  }

  @Test
  void shouldRefuseASecondIsolationInTheSameJvm(TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree t = IsolationTree.create(dir.resolve("root"), 4).typical();
    Isolator isolator = Isolator.at(t.root(), new TreeAffinity(t.root()), dir.resolve("journal"));
    try (Isolation first = isolator.isolate(CpuSet.of(3), Set.of());
        Isolation second = isolator.isolate(CpuSet.of(2), Set.of())) {
      assertThat(first.isActive()).isTrue();
      assertThat(second.report().status()).isEqualTo(IsolationStatus.REFUSED);
      assertThat(second.report().refusal()).contains("already holds an isolation");
    }
  }

  @Test
  void shouldNotNarrowATaskWhoseIdWasReusedSinceTheScan(TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree t = IsolationTree.create(dir.resolve("root"), 4).typical();
    TreeAffinity affinity = new TreeAffinity(t.root());
    Isolator isolator = Isolator.at(t.root(), affinity, dir.resolve("journal"));
    MaskStep scanned =
        new MaskStep(200, 201, 1201, "daemon-worker", CpuSet.range(0, 3), CpuSet.range(0, 2), true);
    t.file("proc/200/task/201/stat", IsolationTree.stat(201, "newcomer", 0, 9_999, 0));

    Change c = scanned.apply(isolator.kernel(CpuSet.range(0, 2)));

    assertThat(c.outcome()).isEqualTo(Change.Outcome.GONE);
    assertThat(affinity.calls()).as("checked before the mask is set").isEmpty();
    assertThat(t.mask(200, 201)).isEqualTo(CpuSet.range(0, 3));
  }
}
