package io.github.affinitykit.isolation;

import static io.github.affinitykit.isolation.IsolatorPlanTest.dir;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.github.affinitykit.core.cpu.CpuSet;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A journal is trusted only if it could only have been written by this user: the planted
 * journal ({@code write FILE RESTORE <victim> owned%0a % %}) leaves the victim untouched and says
 * why, whether the directory, the file or the path gives it away; the directory is made 0700; the
 * {@code .tmp} is never followed; a journal over the cap is refused unread.
 */
class JournalTrustTest {
  private static final String ID = "00000000004c4f53";
  private static final String VICTIM = "etc/victim";

  /** The journal: one step restoring {@code path} to "owned". */
  private static String planted(String path) {
    return "affinitykit-isolation 2\nowner "
        + ID
        + " 4194304 1 %\ncpus 1\nhousekeeping 0\nmechanism AFFINITY_SHIELD\n"
        + "write FILE RESTORE "
        + Escape.encode(path)
        + " owned%0a % %\nend\n";
  }

  private static Path plant(Path journals, String path) throws IOException {
    Files.createDirectories(journals);
    return Files.writeString(journals.resolve("isolation-" + ID + ".journal"), planted(path));
  }

  /** Releases {@code journals} on {@code t}; the victim must read as before, the report why. */
  private static void assertRefused(IsolationTree t, Path journals, String rule) {
    Isolator isolator = Isolator.at(t.root(), new TreeAffinity(t.root()), journals);
    assertThat(isolator.journals())
        .singleElement()
        .satisfies(
            j -> {
              assertThat(j.owner()).isEqualTo(OwnerState.UNKNOWN);
              assertThat(j.describe()).contains("refused, never").contains(rule);
            });
    List<IsolationReport> released = isolator.release();
    assertThat(released)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.status()).isEqualTo(IsolationStatus.REFUSED);
              assertThat(r.refusal()).contains(rule);
              assertThat(r.changes()).isEmpty();
            });
    assertThat(t.read(VICTIM)).isEqualTo("root's own\n");
    try (Isolation iso = isolator.isolate(CpuSet.of(3), Set.of())) {
      assertThat(iso.report().status()).isEqualTo(IsolationStatus.REFUSED);
      assertThat(iso.report().refusal()).contains(rule);
    }
  }

  private static IsolationTree tree(Path dir) {
    return IsolationTree.create(dir.resolve("root"), 4).typical().file(VICTIM, "root's own");
  }

  @Test
  void shouldRefuseThePlantedJournalsPathOutsideWhatAnIsolationWrites(TestInfo info)
      throws IOException {
    Path dir = dir(info);
    IsolationTree t = tree(dir);
    plant(dir.resolve("journal"), "/" + VICTIM);
    assertRefused(
        t, dir.resolve("journal"), "journal path: /" + VICTIM + " (expected: an isolation's own");

    plant(dir.resolve("dots"), "/proc/irq/24/../../../" + VICTIM);
    assertRefused(t, dir.resolve("dots"), "journal path: /proc/irq/24/../../../" + VICTIM);
  }

  @Test
  void shouldRefuseADirectoryOthersCanWriteOrThatIsALink(TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree t = tree(dir);
    Path shared = dir.resolve("shared");
    plant(shared, "/proc/irq/24/smp_affinity");
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertRefused(
        t,
        shared,
        "journal directory: "
            + shared
            + " mode 0777 (expected: writable by its owner alone, as 0700 or 0600)");
    assertThat(t.read("proc/irq/24/smp_affinity")).isEqualTo("f\n");

    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwx------"));
    Path link = Files.createSymbolicLink(dir.resolve("link"), shared);
    assertRefused(
        t,
        link,
        "journal directory: " + link + " is a symbolic link (expected: none: never followed)");
  }

  @Test
  void shouldRefuseAJournalOfAnotherUserOrOthersCanWriteOrALink(TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree t = tree(dir);
    Path journals = dir.resolve("journal");
    Path f = plant(journals, "/proc/irq/24/smp_affinity");
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-rw-rw-"));
    assertRefused(
        t, journals, "journal: " + f + " mode 0666 (expected: writable by its owner alone");

    Files.delete(f);
    Path elsewhere = Files.writeString(dir.resolve("elsewhere"), planted("/" + VICTIM));
    Files.createSymbolicLink(f, elsewhere);
    assertRefused(t, journals, "journal: " + f + " is a symbolic link");

    Files.delete(f);
    plant(journals, "/proc/irq/24/smp_affinity");
    assumeThat(Trusted.effectiveUid()).as("chown needs root").isZero();
    UserPrincipal nobody =
        f.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("65534");
    Files.setOwner(f, nobody);
    assertRefused(
        t,
        journals,
        "journal: " + f + " owned by uid 65534 (expected: uid 0, this process's effective user)");
  }

  @Test
  void shouldRefuseAJournalOverTheCapWithoutReadingIt(TestInfo info) throws IOException {
    Path dir = dir(info);
    IsolationTree t = tree(dir);
    Path journals = dir.resolve("journal");
    Path f = plant(journals, "/proc/irq/24/smp_affinity");
    try (RandomAccessFile sparse = new RandomAccessFile(f.toFile(), "rw")) {
      sparse.setLength(Journal.MAX_BYTES + 1L); // a hole: reading it whole would take 8 MiB
    }
    assertRefused(
        t,
        journals,
        "journal: " + f + " " + (Journal.MAX_BYTES + 1) + " bytes (expected: at most 8388608)");
  }

  @Test
  void shouldMakeTheDirectory0700AndNeverFollowAStaleTmp(TestInfo info) throws IOException {
    Path dir = dir(info);
    Path journals = dir.resolve("made/journal");
    Journal j =
        new Journal(
            new Owner(ID, 1, 1, "boot"), CpuSet.of(1), CpuSet.of(0), Mechanism.NONE, List.of());
    Path file = Journal.file(journals, j.owner());

    j.write(file);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(journals)))
        .isEqualTo("rwx------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");

    Path victim = Files.writeString(dir.resolve("victim"), "root's own\n");
    Path tmp = journals.resolve(file.getFileName() + ".tmp");
    Files.createSymbolicLink(tmp, victim);
    assertThatThrownBy(() -> j.write(file))
        .hasMessageContaining("journal: " + tmp + " is a symbolic link");
    assertThat(Files.readString(victim)).isEqualTo("root's own\n");

    Files.delete(tmp);
    Files.writeString(tmp, "half a journal of ours");
    j.write(file);
    assertThat(tmp).doesNotExist();
    assertThat(Journal.read(file, new Writable(List.of(), List.of()))).isEqualTo(j);
  }
}
