package io.github.affinitykit.jitter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.affinitykit.core.internal.SysFs;
import io.github.affinitykit.core.testkit.FakeHostFiles;
import io.github.affinitykit.core.testkit.HostileFiles;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The counters that explain gaps, read from fixture {@code /proc} files: interrupts by source (the
 * local timer included), softirqs by type, tasks switched in, steal time; a gap attributed to the
 * counters that moved between the readings around it, or unexplained; hostile and garbled files
 * refused with a note that names the file and the rule.
 */
@Timeout(30)
class CountersTest {
  @TempDir Path root;

  private static String interrupts(long loc1, long irq45cpu1) {
    return "           CPU0       CPU1       \n"
        + "  0:         40          0   IO-APIC   2-edge      timer\n"
        + " 45:          7 "
        + String.format("%10d", irq45cpu1)
        + "   PCI-MSI 512000-edge      eth0-rx-0\n"
        + "NMI:          0          0   Non-maskable interrupts\n"
        + "LOC:       1000 "
        + String.format("%10d", loc1)
        + "   Local timer interrupts\n"
        + "ERR:          0\n"
        + "MIS:          0\n";
  }

  private static String softirqs(long timer1) {
    return "                    CPU0       CPU1       \n"
        + "          HI:          0          0\n"
        + "       TIMER:         10 "
        + String.format("%10d", timer1)
        + "\n"
        + "      NET_RX:          3          4\n";
  }

  private static String schedstat(long pcount1) {
    return "version 15\ntimestamp 4295\n"
        + "cpu0 0 0 10 2 3 4 1000 200 30\n"
        + "domain0 03 0 0 0 0 0 0 0 0\n"
        + "cpu1 0 0 10 2 3 4 1000 200 "
        + pcount1
        + "\n";
  }

  private void host(long loc1, long irq45, long timer1, long pcount1) {
    new FakeHostFiles(root)
        .file("proc/interrupts", interrupts(loc1, irq45))
        .file("proc/softirqs", softirqs(timer1))
        .file("proc/schedstat", schedstat(pcount1))
        .file(
            "proc/stat",
            "cpu  10 0 10 100 0 0 0 7 0 0\n"
                + "cpu0 5 0 5 50 0 0 0 2 0 0\n"
                + "cpu1 5 0 5 50 0 0 0 5 0 0\n"
                + "intr 100 0 0\nctxt 4000\n");
  }

  @Test
  void shouldReadEverySourceOfTheSampledCpus() {
    host(5000, 9, 70, 12);
    Counters.Reading r = new Counters(new SysFs(root), Set.of(1)).read();
    assertThat(r.byCpu()).containsOnlyKeys(1);
    assertThat(r.byCpu().get(1))
        .containsEntry("irq LOC", 5000L)
        .containsEntry("irq 45", 9L)
        .containsEntry("irq 0", 0L)
        .containsEntry("irq NMI", 0L)
        .containsEntry("softirq TIMER", 70L)
        .containsEntry("softirq NET_RX", 4L)
        .containsEntry("sched switch-in", 12L)
        .containsEntry("steal ticks", 5L)
        .doesNotContainKeys("irq ERR", "irq MIS");
    assertThat(r.endNanos()).isGreaterThanOrEqualTo(r.beginNanos());
  }

  @Test
  void shouldAttributeAGapToTheCountersThatMovedAroundIt() {
    Counters counters = new Counters(new SysFs(root), Set.of(1));
    host(5000, 9, 70, 12);
    Counters.Reading before = counters.read();
    host(5001, 11, 70, 12); // the timer ticked and IRQ 45 fired twice on CPU 1
    Counters.Reading after = counters.read();
    long start = before.endNanos();
    long gap = Math.max(1, after.beginNanos() - start);
    Attribution a = Counters.attribute(List.of(before, after), 1, start, gap);
    assertThat(a.counted()).isTrue();
    assertThat(a.explained()).isTrue();
    assertThat(a.moved())
        .containsExactly(new CounterMove("irq 45", 2, 2.0), new CounterMove("irq LOC", 1, 1.0));
    assertThat(a.cause()).isEqualTo("irq 45 +2, irq LOC +1");
    assertThat(a.fromNanos()).isEqualTo(before.beginNanos());
    assertThat(a.bracketNs()).isEqualTo(after.endNanos() - before.beginNanos());
  }

  @Test
  void shouldCallAGapWhoseBracketShowsNoMoveUnexplained() {
    Counters.Reading r0 = reading(0, 5000);
    Counters.Reading r1 = reading(500, 5001);
    Counters.Reading r2 = reading(900, 5001);
    Counters.Reading r3 = reading(2000, 5004);
    List<Counters.Reading> readings = List.of(r0, r1, r2, r3);
    // the gap [600, 700) lies between r1 and r2: nothing moved there, whatever moved before
    Attribution quiet = Counters.attribute(readings, 1, 600, 100);
    assertThat(quiet.counted()).isTrue();
    assertThat(quiet.explained()).isFalse();
    assertThat(quiet.cause()).isEqualTo("unexplained");
    assertThat(quiet.fromNanos()).isEqualTo(500);
    assertThat(quiet.toNanos()).isEqualTo(910);
    // the gap [20, 400) lies between r0 and r1, where the timer ticked: about as often as its
    // rate over the window (4 ticks in 2010 ns) gives for the bracket of 510 ns
    Attribution tick = Counters.attribute(readings, 1, 20, 380);
    assertThat(tick.cause()).isEqualTo("irq LOC +1");
    assertThat(tick.moved().get(0).expected()).isCloseTo(4 * 510 / 2010.0, within(1e-9));
    // a CPU the readings do not hold is not counted
    assertThat(Counters.attribute(readings, 0, 20, 380).cause()).isEqualTo("not counted");
  }

  private static Counters.Reading reading(long at, long loc) {
    return new Counters.Reading(
        at, at + 10, Map.of(1, Map.of("irq LOC", loc, "softirq TIMER", 70L)));
  }

  @Test
  void shouldNameTheFiveLargestMovesInTheCause() {
    List<CounterMove> moves = new java.util.ArrayList<>();
    for (int i = 7; i >= 1; i--) {
      moves.add(new CounterMove("irq " + i, i, 0));
    }
    assertThat(new Attribution(moves, 0, 10, true).cause())
        .isEqualTo("irq 7 +7, irq 6 +6, irq 5 +5, irq 4 +4, irq 3 +3 and 2 more");
  }

  @Test
  void shouldRefuseAFifoAndAnOversizedFileAndSaySo() {
    host(5000, 9, 70, 12);
    HostileFiles.fifo(root.resolve("proc/interrupts"));
    HostileFiles.sized(root.resolve("proc/softirqs"), 2 << 20);
    Counters counters = new Counters(new SysFs(root), Set.of(1));
    Counters.Reading r = counters.read();
    assertThat(r.byCpu().get(1)).containsOnlyKeys("sched switch-in", "steal ticks");
    assertThat(counters.notes())
        .anySatisfy(
            n ->
                assertThat(n)
                    .endsWith(
                        "proc/interrupts: a FIFO (expected: a regular file; not opened, it could"
                            + " block)"))
        .anySatisfy(
            n -> assertThat(n).contains("proc/softirqs: more than ").contains("(expected: "));
  }

  @Test
  void shouldLeaveOutATableWhoseHeaderIsNotCpuColumns() {
    new FakeHostFiles(root)
        .file("proc/interrupts", "   CPU0  bogus\n LOC: 1 2\n")
        .file("proc/softirqs", "CPU0 CPU99999\n TIMER: 1 2\n")
        .file("proc/schedstat", "version 9\ncpu1 0 0 0 0 0 0 0 0 5\n");
    Counters counters = new Counters(new SysFs(root), Set.of(1));
    assertThat(counters.read().byCpu().get(1)).isEmpty();
    assertThat(counters.notes())
        .containsExactly(
            "/proc/interrupts: header column 'bogus' (expected: CPU<n>, n < 8192)",
            "/proc/softirqs: header column 'CPU99999' (expected: CPU<n>, n < 8192)",
            "/proc/schedstat: first line 'version 9' (expected: version 15 or later)");
  }
}
