package io.github.affinitykit.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cpu.CpuSet;
import org.junit.jupiter.api.Test;

/** A matrix: what it accepts, a pair's latency from either direction, and its table. */
class LatencyMatrixTest {
  private static final double NAN = Double.NaN;

  @Test
  void shouldTakeTheLargerMeasuredDirectionAsThePairsLatency() {
    LatencyMatrix m =
        LatencyMatrix.of(
            CpuSet.of(2, 5, 9), new double[][] {{7, 20, NAN}, {25, 0, 90}, {88, NAN, -1}});
    assertThat(m.pairNs(2, 5)).isEqualTo(25);
    assertThat(m.pairNs(5, 2)).isEqualTo(25);
    assertThat(m.pairNs(2, 9)).isEqualTo(88);
    assertThat(m.pairNs(9, 9)).isZero();
    assertThat(m.ns(2, 9)).isNaN();
    assertThat(m.ns(2, 2)).isNaN(); // the diagonal is not a latency
    assertThat(m.restrict(CpuSet.of(5, 9)).pairNs(9, 5)).isEqualTo(90);
    assertThat(m.table(CpuSet.of(5)))
        .isEqualTo(
            """
                 ns      2     *5      9
                  2      -   20.0      -
                 *5   25.0      -   90.0
                  9   88.0      -      -
            """);
    assertThat(m).hasToString("LatencyMatrix[2,5,9: 25.0-90.0 ns a pair]");
    // a latency of a loaded host's µs keeps its column apart
    assertThat(
            LatencyMatrix.of(CpuSet.of(0, 1), new double[][] {{0, 11262.14}, {9, 0}})
                .table(CpuSet.of(0)))
        .isEqualTo(
            """
                  ns      *0       1
                  *0       - 11262.1
                   1     9.0       -
            """);
  }

  @Test
  void shouldRefuseANonSquareMatrixABadLatencyOrAnUnmeasuredPair() {
    assertThatThrownBy(() -> LatencyMatrix.of(CpuSet.range(0, 2), new double[][] {{0, 1}, {1, 0}}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "ns: 2 rows of [2, 2] (expected: a square matrix of 3, a row and a column per CPU of 0-2)");
    assertThatThrownBy(() -> LatencyMatrix.of(CpuSet.range(0, 1), new double[][] {{0, 1}, {1}}))
        .hasMessage(
            "ns: 2 rows of [2, 1] (expected: a square matrix of 2, a row and a column per CPU of 0-1)");
    assertThatThrownBy(() -> LatencyMatrix.of(CpuSet.range(0, 1), new double[][] {{0, -3}, {1, 0}}))
        .hasMessage("ns[0][1]: -3.0 (expected: a finite latency > 0, or NaN)");
    assertThatThrownBy(
            () ->
                LatencyMatrix.of(
                    CpuSet.range(0, 1), new double[][] {{0, Double.POSITIVE_INFINITY}, {1, 0}}))
        .hasMessage("ns[0][1]: Infinity (expected: a finite latency > 0, or NaN)");
    assertThatThrownBy(() -> LatencyMatrix.of(CpuSet.of(3, 4), new double[][] {{0, NAN}, {NAN, 0}}))
        .hasMessage("cpus 3,4: not measured (expected: a latency in one direction at least)");
    assertThatThrownBy(() -> LatencyMatrix.of(CpuSet.empty(), new double[0][]))
        .hasMessage("cpus: empty (expected: at least one CPU)");
    LatencyMatrix m = LatencyMatrix.of(CpuSet.of(0, 1), new double[][] {{0, 5}, {5, 0}});
    assertThatThrownBy(() -> m.pairNs(0, 7))
        .hasMessage("cpu: 7 (expected: one of the matrix's CPUs, 0-1)");
    assertThatThrownBy(() -> m.restrict(CpuSet.of(1, 2)))
        .hasMessage("subset: 1-2 (expected: CPUs of the matrix, 0-1)");
  }

  @Test
  void shouldCopyWhatItIsGiven() {
    double[][] ns = {{0, 5}, {6, 0}};
    LatencyMatrix m = LatencyMatrix.of(CpuSet.of(0, 1), ns);
    ns[0][1] = 500;
    assertThat(m.ns(0, 1)).isEqualTo(5);
    assertThat(m).isEqualTo(LatencyMatrix.of(CpuSet.of(0, 1), new double[][] {{9, 5}, {6, 9}}));
    assertThat(m.hashCode())
        .isEqualTo(LatencyMatrix.of(CpuSet.of(0, 1), new double[][] {{1, 5}, {6, 1}}).hashCode());
    assertThat(LatencyMatrix.of(CpuSet.of(4), new double[][] {{0}}))
        .hasToString("LatencyMatrix[4]");
  }
}
