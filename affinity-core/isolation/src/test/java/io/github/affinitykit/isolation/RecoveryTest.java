package io.github.affinitykit.isolation;

import static io.github.affinitykit.isolation.IsolatorPlanTest.dir;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * An isolation whose owner died (its journal left behind, its pid now another process's) is found
 * by the journals, undone by release or by the next isolate; a live owner's is left alone; a
 * journal of an earlier boot is only deleted.
 */
class RecoveryTest {
  private static final long PID = ProcessHandle.current().pid();

  /**
   * Isolates CPU 3, then "kills" the owner: its journal moves to {@code dead}, its pid is reused.
   */
  static Path crash(IsolationTree t, Path dir) throws IOException {
    Isolation iso =
        Isolator.at(t.root(), new TreeAffinity(t.root()), dir.resolve("live"))
            .isolate(CpuSet.of(3), Set.of());
    assertThat(iso.isActive()).as(iso.report().text()).isTrue();
    Path dead = Files.createDirectories(dir.resolve("dead"));
    Path journal = Path.of(iso.report().journal());
    Files.move(journal, dead.resolve(journal.getFileName()));
    t.file("proc/" + PID + "/stat", IsolationTree.stat((int) PID, "java", 0, 999_999, 0));
    return dead;
  }

  @Test
  void shouldFindTheDeadOwnerAndReleaseEveryChangeByteForByte(TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree t = IsolationTree.create(dir.resolve("root"), 4).typical();
    Map<String, String> before = t.snapshot();
    Path dead = crash(t, dir);
    Isolator recovering = Isolator.at(t.root(), new TreeAffinity(t.root()), dead);

    List<IsolationJournal> found = recovering.journals();
    assertThat(found)
        .singleElement()
        .satisfies(
            j -> {
              assertThat(j.owner()).isEqualTo(OwnerState.DEAD);
              assertThat(j.ownerPid()).isEqualTo(PID);
              assertThat(j.cpus()).isEqualTo(CpuSet.of(3));
              assertThat(j.describe()).contains("which is dead: run release to undo it");
            });
    assertThat(t.read("proc/irq/24/smp_affinity")).isEqualTo("7\n");

    List<IsolationReport> released = recovering.release();

    assertThat(released)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.status()).isEqualTo(IsolationStatus.RELEASED);
              assertThat(r.recovered()).singleElement().asString().endsWith(": undone");
              assertThat(r.changes())
                  .allSatisfy(c -> assertThat(c.outcome()).isEqualTo(Change.Outcome.RESTORED));
            });
    Map<String, String> after = t.snapshot();
    after.remove("proc/" + PID + "/stat");
    before.remove("proc/" + PID + "/stat");
    assertThat(after).isEqualTo(before);
    assertThat(recovering.journals()).isEmpty();
  }

  @Test
  void shouldUndoTheDeadOwnersIsolationBeforeIsolatingAgain(TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree t = IsolationTree.create(dir.resolve("root"), 4).typical();
    Path dead = crash(t, dir);

    try (Isolation iso =
        Isolator.at(t.root(), new TreeAffinity(t.root()), dead).isolate(CpuSet.of(2), Set.of())) {
      assertThat(iso.report().recovered())
          .singleElement()
          .asString()
          .contains("CPUs 3 isolated by pid " + PID)
          .endsWith(": undone");
      assertThat(iso.report().status()).isEqualTo(IsolationStatus.ISOLATED);
      assertThat(t.mask(200, 200)).isEqualTo(CpuSet.of(0, 1, 3));
    }
    assertThat(t.mask(200, 200)).isEqualTo(CpuSet.range(0, 3));
  }

  @Test
  void shouldLeaveALiveOwnersIsolationAloneAndRefuseASecondOne(TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree t = IsolationTree.create(dir.resolve("root"), 4).typical();
    Path journals = Files.createDirectories(dir.resolve("journal"));
    Owner other = new Owner("0000000000004242", 4242, 5242, "boot-1");
    Path theirs = Journal.file(journals, other);
    new Journal(other, CpuSet.of(1), CpuSet.of(0), Mechanism.AFFINITY_SHIELD, List.of())
        .write(theirs);
    LockedFile alive = LockedFile.tryLock(Journal.ownerFile(theirs)).orElseThrow();
    Map<String, String> before = t.snapshot();
    Isolator isolator = Isolator.at(t.root(), new TreeAffinity(t.root()), journals);

    try (Isolation iso = isolator.isolate(CpuSet.of(3), Set.of())) {
      assertThat(iso.report().status()).isEqualTo(IsolationStatus.REFUSED);
      assertThat(iso.report().refusal())
          .startsWith("CPUs 1 isolated by pid 4242 (AFFINITY_SHIELD), which still runs")
          .contains("one isolation at a time");
    }
    assertThat(t.snapshot()).isEqualTo(before);
    assertThat(isolator.release())
        .singleElement()
        .satisfies(r -> assertThat(r.refusal()).endsWith("which still runs: left to it"));
    assertThat(theirs).exists();
    assertThat(journals.resolve("isolation-" + Owner.jvmId() + ".journal")).doesNotExist();

    alive.close(); // as the kernel does when its owner dies, however it dies
    assertThat(isolator.journals())
        .as("nobody holds its owner lock")
        .extracting(IsolationJournal::owner)
        .containsExactly(OwnerState.DEAD);
  }

  @Test
  void shouldOnlyDeleteAJournalOfAnEarlierBootAndReportAnUnreadableOne(TestInfo info)
      throws IOException {
    Path dir = dir(info);
    IsolationTree t = IsolationTree.create(dir.resolve("root"), 4).typical();
    Path journals = Files.createDirectories(dir.resolve("journal"));
    new Journal(
            new Owner(Owner.jvmId(), PID, 777, "boot-0"),
            CpuSet.of(3),
            CpuSet.range(0, 2),
            Mechanism.AFFINITY_SHIELD,
            List.of(
                new MaskStep(
                    200, 200, 1200, "daemon", CpuSet.range(0, 3), CpuSet.range(0, 2), true)))
        .write(journals.resolve("isolation-" + Owner.jvmId() + ".journal"));
    Files.writeString(journals.resolve("isolation-9.journal"), "affinitykit-isolation 1\nowner 9");
    t.task(200, 200, "daemon", 0, "0-2");
    Isolator isolator = Isolator.at(t.root(), new TreeAffinity(t.root()), journals);

    assertThat(isolator.journals())
        .extracting(IsolationJournal::owner)
        .containsExactlyInAnyOrder(OwnerState.EARLIER_BOOT, OwnerState.UNKNOWN);
    assertThat(isolator.journals())
        .filteredOn(j -> j.owner() == OwnerState.UNKNOWN)
        .singleElement()
        .satisfies(
            j ->
                assertThat(j.describe())
                    .contains(": refused, never replayed: journal: ")
                    .contains("(expected: affinitykit-isolation 2 ... end, a whole journal)"));

    assertThat(isolator.release())
        .filteredOn(r -> r.status() == IsolationStatus.RELEASED)
        .singleElement()
        .satisfies(
            r ->
                assertThat(r.recovered())
                    .singleElement()
                    .asString()
                    .contains("before the last reboot")
                    .endsWith("journal deleted"));
    assertThat(t.mask(200, 200)).as("nothing undone across a reboot").isEqualTo(CpuSet.range(0, 2));
    assertThat(isolator.journals())
        .extracting(IsolationJournal::owner)
        .containsExactly(OwnerState.UNKNOWN);
  }
}
