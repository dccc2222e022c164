package io.github.affinitykit.latency;

import static io.github.affinitykit.latency.RecordedMatrices.CCD0;
import static io.github.affinitykit.latency.RecordedMatrices.CCD1;
import static io.github.affinitykit.latency.RecordedMatrices.SOCKET0;
import static io.github.affinitykit.latency.RecordedMatrices.SOCKET1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cpu.CpuSet;
import org.junit.jupiter.api.Test;

/** The choice on published matrices of a chiplet CPU, a two-socket one, and on made-up ties. */
class LatencyPlacementTest {
  private static final LatencyMatrix RYZEN = RecordedMatrices.load(RecordedMatrices.RYZEN_5950X);
  private static final LatencyMatrix THREADRIPPER =
      RecordedMatrices.load(RecordedMatrices.THREADRIPPER_3960X);
  private static final LatencyMatrix XEON =
      RecordedMatrices.load(RecordedMatrices.DUAL_XEON_E5_2690);
  private static final CpuSet ALL32 = CpuSet.range(0, 31);

  @Test
  void shouldKeepAGroupWithinOneCcdOfAChipletCpuWhenItFits() {
    for (int n : new int[] {3, 4, 8, 12, 16}) {
      LatencyChoice choice = LatencyPlacement.choose(RYZEN, ALL32, n);
      CpuSet cpus = choice.chosen().cpus();
      assertThat(cpus.size()).isEqualTo(n);
      assertThat(CCD0.containsAll(cpus) || CCD1.containsAll(cpus)).as("n=%d: %s", n, cpus).isTrue();
      assertThat(choice.chosen().worstNs()).as("n=%d", n).isLessThan(25);
      assertThat(choice.exact()).isEqualTo(n <= 6);
    }
  }

  @Test
  void shouldSpillToTheOtherCcdOnlyForWhatOneCcdCannotHold() {
    LatencyChoice choice = LatencyPlacement.choose(RYZEN, ALL32, 20);
    CpuSet cpus = choice.chosen().cpus();
    assertThat(cpus.containsAll(CCD0) || cpus.containsAll(CCD1)).as("%s", cpus).isTrue();
    assertThat(choice.chosen().worstNs()).isBetween(80.0, 90.0);
  }

  @Test
  void shouldFillOneCcxThenItsNearestNeighbourOnZen2() {
    CpuSet cores = CpuSet.range(0, 23); // one CPU per core: no SMT sibling
    LatencyChoice three = LatencyPlacement.choose(THREADRIPPER, cores, 3);
    assertThat(three.chosen().cpus()).isEqualTo(CpuSet.range(3, 5));
    assertThat(three.chosen().worstNs()).isLessThan(25);
    // a CCX holds three cores: the fourth comes from the CCX nearest to it (73-77 ns), not from
    // a CCX across the I/O die (88-102 ns)
    LatencyChoice four = LatencyPlacement.choose(THREADRIPPER, cores, 4);
    assertThat(four.chosen().cpus()).isEqualTo(CpuSet.parse("12,15-17"));
    assertThat(four.chosen().worstNs()).isLessThan(78);
    LatencyChoice six = LatencyPlacement.choose(THREADRIPPER, cores, 6);
    assertThat(six.chosen().cpus()).isEqualTo(CpuSet.range(12, 17));
    assertThat(six.alternative().cpus()).isEqualTo(CpuSet.range(0, 5));
    assertThat(six.alternative().worstNs()).isGreaterThan(85);
  }

  @Test
  void shouldKeepAGroupWithinOneSocketAndSpillOneCpuWhenItDoesNotFit() {
    for (int n : new int[] {2, 4, 8, 16}) {
      CpuSet cpus = LatencyPlacement.choose(XEON, ALL32, n).chosen().cpus();
      assertThat(SOCKET0.containsAll(cpus) || SOCKET1.containsAll(cpus))
          .as("n=%d: %s", n, cpus)
          .isTrue();
    }
    LatencyChoice two = LatencyPlacement.choose(XEON, ALL32, 2);
    assertThat(two.chosen().cpus()).isEqualTo(CpuSet.of(4, 20)); // SMT siblings, 8.3 ns
    LatencyChoice spill = LatencyPlacement.choose(XEON, ALL32, 17);
    CpuSet cpus = spill.chosen().cpus();
    assertThat(cpus.containsAll(SOCKET0) || cpus.containsAll(SOCKET1)).as("%s", cpus).isTrue();
    assertThat(spill.chosen().worstNs()).isGreaterThan(100); // the socket crossing is unavoidable
    // across the sockets from the pool's lowest ids, within one socket when chosen
    LatencyChoice pool = LatencyPlacement.choose(XEON, CpuSet.range(6, 17), 3);
    assertThat(pool.alternative().cpus()).isEqualTo(CpuSet.range(6, 8));
    assertThat(pool.alternative().worstNs()).isGreaterThan(100);
    assertThat(pool.chosen().worstNs()).isLessThan(50);
  }

  @Test
  void shouldGrowGreedilyToWithinFivePercentOfTheExactWorstPairOnTheRecordedMatrices() {
    for (LatencyMatrix m : new LatencyMatrix[] {RYZEN, THREADRIPPER, XEON}) {
      int size = m.cpus().size();
      long[][] cost = new long[size][size];
      for (int r = 0; r < size; r++) {
        for (int c = 0; c < size; c++) {
          cost[r][c] = r == c ? 0 : Math.max(1, Math.round(m.pair(r, c) * 1000));
        }
      }
      for (int n = 2; n <= 5; n++) {
        long exact = worst(cost, SubsetSearch.exact(cost, n));
        assertThat(worst(cost, SubsetSearch.greedy(cost, n)))
            .as("%s n=%d", m, n)
            .isBetween(exact, exact + exact / 20);
      }
    }
  }

  private static long worst(long[][] cost, int[] set) {
    long worst = 0;
    for (int a : set) {
      for (int b : set) {
        worst = Math.max(worst, cost[a][b]);
      }
    }
    return worst;
  }

  @Test
  void shouldBreakTiesByMeanThenLowestIdsTheSameEveryTime() {
    double[][] flat = new double[40][40];
    for (double[] row : flat) {
      java.util.Arrays.fill(row, 10);
    }
    LatencyMatrix even = LatencyMatrix.of(CpuSet.range(0, 39), flat);
    LatencyChoice exact = LatencyPlacement.choose(even, CpuSet.range(0, 39), 3);
    assertThat(exact.exact()).isTrue();
    assertThat(exact.cpus()).containsExactly(0, 1, 2);
    LatencyChoice greedy = LatencyPlacement.choose(even, CpuSet.range(0, 39), 10);
    assertThat(greedy.exact()).isFalse();
    assertThat(greedy.chosen().cpus()).isEqualTo(CpuSet.range(0, 9));
    // equal worst pair: the lower mean wins, whatever the ids
    double[][] ns = {
      {0, 50, 50, 50},
      {50, 0, 50, 50},
      {50, 50, 0, 10},
      {50, 50, 10, 0},
    };
    LatencyMatrix m = LatencyMatrix.of(CpuSet.range(0, 3), ns);
    assertThat(LatencyPlacement.choose(m, m.cpus(), 3).chosen().cpus())
        .isEqualTo(CpuSet.of(0, 2, 3));
    assertThat(LatencyPlacement.choose(m, m.cpus(), 3))
        .isEqualTo(LatencyPlacement.choose(m, m.cpus(), 3));
  }

  @Test
  void shouldSeatTheCpuNearestToAllFirstAndTheRestByTheirLatencyFromIt() {
    double[][] ns = {
      {0, 30, 40},
      {30, 0, 20},
      {40, 20, 0},
    };
    LatencyChoice choice =
        LatencyPlacement.choose(LatencyMatrix.of(CpuSet.range(0, 2), ns), CpuSet.range(0, 2), 3);
    assertThat(choice.cpus()).containsExactly(1, 2, 0);
    assertThat(choice.chosen().worstNs()).isEqualTo(40);
    assertThat(choice.chosen().meanNs()).isEqualTo(30);
    LatencyChoice one =
        LatencyPlacement.choose(LatencyMatrix.of(CpuSet.range(0, 2), ns), CpuSet.of(2), 1);
    assertThat(one.cpus()).containsExactly(2);
    assertThat(one.chosen().worstNs()).isZero();
  }

  @Test
  void shouldReportTheChoiceWhatItBeatAndThePoolsMatrix() {
    LatencyChoice choice = LatencyPlacement.choose(XEON, CpuSet.range(7, 10), 2);
    assertThat(choice.cpus()).containsExactly(8, 10);
    assertThat(choice.report())
        .isEqualTo(
            """
            latency placement of 2 CPUs among 7-10 (every set compared)
              chosen  8,10: worst 33.6 ns, mean 33.6 ns a pair, members in order [8, 10]
              instead 7-8: worst 145.8 ns, mean 145.8 ns a pair (the pool's lowest ids)
                 ns      7     *8      9    *10
                  7      -      -      -      -
                 *8  145.8      -      -      -
                  9  110.3   40.0      -      -
                *10  109.3   33.6   33.9      -
            """);
  }

  @Test
  void shouldRefuseBadInputSayingTheRule() {
    assertThatThrownBy(() -> LatencyPlacement.choose(XEON, ALL32, 33))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("n: 33 (expected: 1 to 32, the CPUs of the pool 0-31)");
    assertThatThrownBy(() -> LatencyPlacement.choose(XEON, ALL32, 0))
        .hasMessage("n: 0 (expected: 1 to 32, the CPUs of the pool 0-31)");
    assertThatThrownBy(() -> LatencyPlacement.choose(XEON, CpuSet.parse("30-33"), 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pool: 30-33 (expected: CPUs of the matrix, 0-31)");
    assertThatThrownBy(() -> LatencyPlacement.choose(XEON, CpuSet.empty(), 1))
        .hasMessage("pool: empty (expected: CPUs of the matrix, 0-31)");
    assertThatThrownBy(() -> LatencyPlacement.choose(null, ALL32, 1)).hasMessage("matrix");
  }
}
