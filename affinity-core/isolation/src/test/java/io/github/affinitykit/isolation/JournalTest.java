package io.github.affinitykit.isolation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cpu.CpuSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The journal's text: every step kind survives a round trip exactly; garbage is refused. */
class JournalTest {
  static final Writable CGROUP2 = new Writable(List.of("/sys/fs/cgroup"), List.of());
  private static final String HEAD = "affinitykit-isolation 2\nowner 0123456789abcdef 1 2 %\n";

  @Test
  void shouldReadBackEveryStepExactly(@TempDir Path dir) throws IOException {
    List<Step> steps =
        List.of(
            new DirStep(
                "/sys/fs/cgroup/a b/affinitykit-07", "/sys/fs/cgroup/a b", "cgroup.threads"),
            new WriteStep(
                Change.Kind.CGROUP,
                WriteStep.Undo.TEXT,
                "/sys/fs/cgroup/cgroup.subtree_control",
                "cpu memory\n",
                "+cpuset",
                "-cpuset"),
            WriteStep.restoring(Change.Kind.IRQ, "/proc/irq/24/smp_affinity", "ff\n", "7f\n"),
            WriteStep.created("/sys/fs/cgroup/a b/affinitykit-07/cpuset.cpus", "3"),
            new JoinStep(
                7,
                8,
                "name with % and spaces",
                "/sys/fs/cgroup/a b/affinitykit-07",
                "/sys/fs/cgroup/a b",
                "cgroup.threads",
                true),
            new MaskStep(7, 8, 1234, "w\u00e9ird", CpuSet.range(0, 7), CpuSet.range(0, 6), false));
    Journal j =
        new Journal(
            new Owner("0123456789abcdef", 7, 99, "b00t id"),
            CpuSet.of(7),
            CpuSet.range(0, 6),
            Mechanism.CGROUP_V2_PARTITION,
            steps);
    Path file = Journal.file(dir, j.owner());

    j.write(file);

    assertThat(file.getFileName().toString()).isEqualTo("isolation-0123456789abcdef.journal");
    assertThat(Journal.read(file, CGROUP2)).isEqualTo(j);
    assertThat(Files.readAllLines(file)).contains("cpus 7", "mechanism CGROUP_V2_PARTITION", "end");
    assertThat(Journal.list(dir)).containsExactly(file);
    assertThat(Journal.list(dir.resolve("missing"))).isEmpty();
    assertThat(j.plus(List.of(steps.get(0))).steps()).hasSize(7);
  }

  @Test
  void shouldRefuseAJournalThatIsNotWhole(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("isolation-0123456789abcdef.journal");
    Files.writeString(f, HEAD + "cpus 3\nhousekeeping 0-2\nmechanism NONE\n");
    assertThatThrownBy(() -> Journal.read(f, CGROUP2))
        .hasMessageContaining("(expected: affinitykit-isolation 2 ... end");
    Files.writeString(f, HEAD + "cpus 3\nhousekeeping 0-2\nmechanism NONE\nrm -rf /\nend\n");
    assertThatThrownBy(() -> Journal.read(f, CGROUP2))
        .hasMessage("journal line: rm -rf / (expected: mkdir, write, join or task)");
    Files.writeString(
        f, "affinitykit-isolation 2\nowner 1 2 %\ncpus 3\nhousekeeping 0-2\nmechanism NONE\nend\n");
    assertThatThrownBy(() -> Journal.read(f, CGROUP2))
        .hasMessage("journal owner: owner 1 2 % (expected: 4 fields)");
    Files.writeString(
        f, HEAD.replace("0123", "3210") + "cpus 3\nhousekeeping 0-2\nmechanism NONE\nend\n");
    assertThatThrownBy(() -> Journal.read(f, CGROUP2))
        .hasMessageStartingWith("journal owner: 3210456789abcdef (expected: the id its file name");
    assertThatThrownBy(() -> Step.parse("task 1 2"))
        .hasMessage("journal task: 1 2 (expected: 7 fields)");
  }

  @Test
  void shouldEscapeEveryByteThatCouldSplitAFieldOrALine() {
    for (String s : List.of("", " ", "%", "a b\n", "0-3\n", "\u00e9\t\u0000x", "%41")) {
      String e = Escape.encode(s);
      assertThat(e).doesNotContain(" ", "\n").isNotEmpty();
      assertThat(Escape.decode(e)).isEqualTo(s);
    }
    assertThat(Escape.encode("a b")).isEqualTo("a%20b");
    assertThatThrownBy(() -> Escape.decode("%4"))
        .hasMessage("journal field: %4 (expected: % followed by two hex digits)");
  }

  @Test
  void shouldTellTheStartTimeFromAStatLineWhoseNameHoldsParentheses() {
    assertThat(Task.startTicks(IsolationTree.stat(5, "a) (b", 0, 4321, 2))).isEqualTo(4321);
    assertThat(Task.startTicks("5 (short) S 1")).isEqualTo(-1);
  }
}
