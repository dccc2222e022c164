package io.github.affinitykit.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The experiment's one printer, on a recorded result. */
class JitterTableTest {
  private static ArmRow kitRow(String thread, long maxNs, long lostNs, String audit, String cause) {
    return new ArmRow(
        1,
        thread,
        5_000_000_000L,
        1_234,
        new ArmRow.Amount(maxNs, ArmRow.Bound.EXACT),
        new ArmRow.Amount(maxNs, ArmRow.Bound.EXACT),
        new ArmRow.Amount(lostNs, ArmRow.Bound.EXACT),
        lostNs / 5e9,
        audit,
        cause);
  }

  /** What a run on CPU 1 of a 2-CPU host printed, as records. */
  static JitterRun recorded() {
    ArmRow anchor =
        MicroJitterOutput.row(
            1,
            "PINNED (AffinityLock)",
            new MicroJitterOutput.Block(
                15,
                List.of(
                    new MicroJitterOutput.Count(2_000, 48_000),
                    new MicroJitterOutput.Count(1_000_000, 240))));
    return new JitterRun(
        CpuSet.of(1),
        Duration.ofSeconds(5),
        2_000,
        "1 busy thread of this JVM, unpinned",
        List.of(
            ArmResult.ran(
                "unpinned",
                "where the scheduler puts them",
                List.of(kitRow("UNPINNED", 12_300_000, 600_000_000, "-", "not counted")),
                List.of()),
            ArmResult.ran(
                "pinned",
                "pinned by the kit",
                List.of(kitRow("PINNED", 4_100_000, 50_000_000, "INTRUDED", "sched switch-in +1")),
                List.of("audit: a note")),
            ArmResult.refused("isolated", "isolated at runtime", "not run: needs --isolated"),
            ArmResult.ran("anchor", "MicroJitterSampler", List.of(anchor), List.of())));
  }

  @Test
  void shouldPrintATablePerArmWithTheBoundsOfEachFigure() {
    String text = JitterTable.render(recorded());

    assertThat(text)
        .startsWith(
            "Jitter     CPUs 1, 5.00 s per arm: every gap of 2.0 µs or more between two"
                + " consecutive clock reads of a spinning thread\n"
                + "  noise: 1 busy thread of this JVM, unpinned\n"
                + "  cost: a sampling thread is a busy CPU for its window (up to 3 arms of 5.00 s"
                + " on each CPU sampled), and the anchor's JVM one at 50% for its rounds\n");
    assertThat(text.lines())
        .containsSubsequence(
            "unpinned   where the scheduler puts them",
            "   cpu  thread                        sampled        gaps      max gap       p99.99"
                + "   time lost  audit     cause of the max gap",
            "     1  UNPINNED                       5.00 s       1,234     12.30 ms     12.30 ms"
                + "    12.0000%  -         not counted",
            "pinned     pinned by the kit",
            "   cpu  thread                        sampled        gaps      max gap       p99.99"
                + "   time lost  audit     cause of the max gap",
            "     1  PINNED                         5.00 s       1,234      4.10 ms      4.10 ms"
                + "     1.0000%  INTRUDED  sched switch-in +1",
            "  note: audit: a note",
            "isolated   isolated at runtime",
            "  not run: needs --isolated",
            "anchor     MicroJitterSampler",
            "   cpu  thread                        sampled        gaps      max gap       p99.99"
                + "   time lost  audit     cause of the max gap",
            // 48,000/h over 15 s: 200 gaps of 2-3 us; 240/h: 1 of 1-2 ms
            "     1  PINNED (AffinityLock)         15.00 s         201    ≥ 1.00 ms    ≤ 2.00 ms"
                + "   ≥ 0.0093%  -         -");
    assertThat(text).endsWith(JitterTable.DIFFERENCES + "\n");
  }

  @Test
  void shouldWriteLengthsInTheUnitThatReadsBest() {
    assertThat(JitterTable.length(850)).isEqualTo("850 ns");
    assertThat(JitterTable.length(12_340)).isEqualTo("12.3 µs");
    assertThat(JitterTable.length(4_100_000)).isEqualTo("4.10 ms");
    assertThat(JitterTable.length(1_200_000_000)).isEqualTo("1.20 s");
    assertThat(JitterTable.amount(new ArmRow.Amount(Long.MAX_VALUE, ArmRow.Bound.AT_MOST)))
        .isEqualTo("unbounded");
  }
}
