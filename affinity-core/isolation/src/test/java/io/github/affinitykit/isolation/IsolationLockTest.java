package io.github.affinitykit.isolation;

import static io.github.affinitykit.isolation.IsolatorPlanTest.dir;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * One isolator at a time, recovery included: the directory's lock; a dead journal not wholly undone
 * refuses a new isolation; a file is put back only while it holds what the isolation wrote. An
 * owner is alive while it holds its owner lock, whatever its pid says.
 */
class IsolationLockTest {
  private static final String WQ = "sys/devices/virtual/workqueue/cpumask";

  @Test
  void shouldRefuseIsolateAndReleaseWhileAnotherIsolatorHoldsTheDirectory(TestInfo info)
      throws IOException {
    Path dir = dir(info);
    IsolationTree t = IsolationTree.create(dir.resolve("root"), 4).typical();
    Path journals = Files.createDirectories(dir.resolve("journal"));
    Map<String, String> before = t.snapshot();
    Isolator isolator =
        Isolator.at(t.root(), new TreeAffinity(t.root()), journals).lockWait(Duration.ZERO);

    try (LockedFile other = LockedFile.tryLock(journals.resolve("isolation.lock")).orElseThrow()) {
      assertThat(LockedFile.held(other.path())).isTrue();
      try (Isolation iso = isolator.isolate(CpuSet.of(3), Set.of())) {
        assertThat(iso.report().status()).isEqualTo(IsolationStatus.REFUSED);
        assertThat(iso.report().refusal())
            .startsWith("another isolate or release is at work in " + journals);
      }
      assertThat(isolator.release())
          .singleElement()
          .satisfies(r -> assertThat(r.refusal()).startsWith("another isolate or release"));
      assertThat(t.snapshot()).isEqualTo(before);
    }
    try (Isolation iso = isolator.isolate(CpuSet.of(3), Set.of())) {
      assertThat(iso.report().status()).isEqualTo(IsolationStatus.ISOLATED);
    }
  }

  /**
   * The fixture: a dead isolation whose undo fails on the read-only workqueue cpumask
   * refuses the next one, and the later release restores only what still holds its values.
   */
  @Test
  void shouldRefuseANewIsolationOverADeadOneNotWhollyUndoneAndRestoreOnlyItsOwnValues(TestInfo info)
      throws IOException {
    Path dir = dir(info);
    IsolationTree t = IsolationTree.create(dir.resolve("root"), 4).typical();
    Map<String, String> before = t.snapshot();
    Path dead = RecoveryTest.crash(t, dir);
    Path wq = t.root().resolve(WQ);
    Files.setPosixFilePermissions(wq, PosixFilePermissions.fromString("r--r--r--"));
    Isolator isolator = Isolator.at(t.root(), new TreeAffinity(t.root()), dead);

    try (Isolation second = isolator.isolate(CpuSet.of(2), Set.of())) {
      assertThat(second.report().status()).isEqualTo(IsolationStatus.REFUSED);
      assertThat(second.report().refusal())
          .contains("CPUs 3 isolated by pid " + ProcessHandle.current().pid())
          .contains("its undo is not complete (journal " + dead)
          .endsWith("run release until it is, then isolate");
    }
    assertThat(t.read("proc/irq/24/smp_affinity")).as("undone before refusing").isEqualTo("f\n");
    assertThat(t.read(WQ)).as("read-only: still narrowed").isEqualTo("7\n");
    assertThat(t.mask(200, 201)).isEqualTo(CpuSet.range(0, 3));

    t.file("proc/irq/24/smp_affinity", "3"); // someone else's value since
    Files.setPosixFilePermissions(wq, PosixFilePermissions.fromString("rw-r--r--"));
    List<IsolationReport> released = isolator.release();

    assertThat(released)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.recovered()).singleElement().asString().endsWith(": undone");
              assertThat(r.changes())
                  .filteredOn(c -> c.name().equals("/proc/irq/24/smp_affinity"))
                  .singleElement()
                  .satisfies(
                      c -> {
                        assertThat(c.outcome()).isEqualTo(Change.Outcome.LEFT);
                        assertThat(c.detail())
                            .isEqualTo("now \"3\": changed by someone else while isolated");
                      });
              assertThat(r.changes())
                  .filteredOn(c -> c.name().equals(IrqPlan.WORKQUEUE_MASK))
                  .singleElement()
                  .satisfies(c -> assertThat(c.outcome()).isEqualTo(Change.Outcome.RESTORED));
            });
    assertThat(t.read("proc/irq/24/smp_affinity")).as("left to its new owner").isEqualTo("3\n");
    assertThat(t.read(WQ)).isEqualTo(before.get(WQ));
    assertThat(isolator.journals()).isEmpty();
  }

  /**
   * Two containers sharing the directory, each JVM pid 1: the journals do not collide, and the one
   * whose owner still holds its lock is left alone while the dead one is undone.
   */
  @Test
  void shouldTellTwoPidOnesApartByTheirOwnerLocks(TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree t = IsolationTree.create(dir.resolve("root"), 4).typical();
    t.file("proc/irq/24/smp_affinity", "7").file("proc/irq/default_smp_affinity", "7");
    Path journals = Files.createDirectories(dir.resolve("journal"));
    Owner live = new Owner("00000000000000a1", 1, 1, "boot-1");
    Owner gone = new Owner("00000000000000b2", 1, 1, "boot-1");
    Path liveFile = Journal.file(journals, live);
    journal(live, "/proc/irq/24/smp_affinity", Change.Kind.IRQ).write(liveFile);
    journal(gone, IrqPlan.DEFAULT_AFFINITY, Change.Kind.FILE).write(Journal.file(journals, gone));
    Isolator isolator = Isolator.at(t.root(), new TreeAffinity(t.root()), journals);

    try (LockedFile held = LockedFile.tryLock(Journal.ownerFile(liveFile)).orElseThrow()) {
      assertThat(isolator.journals())
          .extracting(IsolationJournal::owner)
          .containsExactly(OwnerState.ALIVE, OwnerState.DEAD);
      assertThat(held.path()).exists();
      List<IsolationReport> released = isolator.release();

      assertThat(released).hasSize(2);
      assertThat(released)
          .filteredOn(r -> r.status() == IsolationStatus.REFUSED)
          .singleElement()
          .satisfies(r -> assertThat(r.refusal()).endsWith("which still runs: left to it"));
      assertThat(t.read("proc/irq/24/smp_affinity")).isEqualTo("7\n");
      assertThat(t.read("proc/irq/default_smp_affinity")).isEqualTo("f\n");
      assertThat(isolator.journals())
          .singleElement()
          .satisfies(j -> assertThat(j.journal()).isEqualTo(liveFile.toString()));
    }
  }

  private static Journal journal(Owner owner, String path, Change.Kind kind) {
    return new Journal(
        owner,
        CpuSet.of(3),
        CpuSet.range(0, 2),
        Mechanism.AFFINITY_SHIELD,
        List.of(WriteStep.restoring(kind, path, "f\n", "7\n")));
  }

  /** The lock belongs to the process, not the thread that took it: its exit leaves it alive. */
  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void shouldCountAnOwnerAliveAfterTheThreadThatLockedExits(TestInfo info) throws Exception {
    Path dir = dir(info);
    Path owner = dir.resolve("isolation-00000000000000c3.owner");
    AtomicReference<LockedFile> taken = new AtomicReference<>();
    Thread leader =
        new Thread(
            () -> {
              try {
                taken.set(LockedFile.tryLock(owner).orElseThrow());
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            },
            "leader");
    leader.start();
    leader.join(TimeUnit.SECONDS.toMillis(20));

    assertThat(leader.isAlive()).isFalse();
    assertThat(taken.get()).isNotNull();
    assertThat(LockedFile.held(owner)).as("the thread ended, the process lives").isTrue();
    taken.get().closeAndDelete();
    assertThat(LockedFile.held(owner)).isFalse();
  }
}
