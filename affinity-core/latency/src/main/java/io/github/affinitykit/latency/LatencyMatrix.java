package io.github.affinitykit.latency;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * The one-way handoff latency between CPUs, in nanoseconds: row CPU to column CPU, as measured by
 * {@link LatencyMeter} or recorded elsewhere. A direction may be unmeasured ({@code NaN}, as a tool
 * that measures each pair once leaves one triangle empty); the latency of a pair ({@link #pairNs})
 * is the larger of its measured directions. The diagonal is not a latency and is ignored.
 *
 * <p>Thread safety: immutable; safe to share between threads.
 */
public final class LatencyMatrix {
  private final CpuSet cpus;
  private final int[] ids;
  private final double[] ns; // row-major, ids.length squared; NaN where unmeasured

  private LatencyMatrix(CpuSet cpus, double[] ns) {
    this.cpus = cpus;
    this.ids = cpus.toArray();
    this.ns = ns;
  }

  /**
   * Makes a matrix from measured latencies.
   *
   * @param cpus the CPUs of the rows and columns, ascending; at least one
   * @param ns {@code ns[r][c]}: the one-way latency from the {@code r}-th CPU of {@code cpus} to
   *     the {@code c}-th, finite and over 0, or {@code NaN} where that direction was not measured
   *     (one direction of each pair at least); the diagonal is ignored; copied
   * @return an immutable matrix
   * @throws IllegalArgumentException if {@code ns} is not square of {@code cpus.size()}, a latency
   *     is negative, zero or infinite, or a pair has no measured direction
   * @throws NullPointerException if an argument or a row is null
   */
  public static LatencyMatrix of(CpuSet cpus, double[][] ns) {
    Objects.requireNonNull(cpus, "cpus");
    Objects.requireNonNull(ns, "ns");
    int n = cpus.size();
    if (n == 0) {
      throw new IllegalArgumentException("cpus: empty (expected: at least one CPU)");
    }
    boolean square = ns.length == n;
    for (double[] row : ns) {
      square &= Objects.requireNonNull(row, "row").length == n;
    }
    if (!square) {
      throw new IllegalArgumentException(
          "ns: "
              + ns.length
              + " rows of "
              + Arrays.toString(Arrays.stream(ns).mapToInt(r -> r.length).toArray())
              + " (expected: a square matrix of "
              + n
              + ", a row and a column per CPU of "
              + cpus
              + ")");
    }
    double[] flat = new double[n * n];
    int[] ids = cpus.toArray();
    for (int r = 0; r < n; r++) {
      for (int c = 0; c < n; c++) {
        double v = r == c ? Double.NaN : ns[r][c];
        if (!Double.isNaN(v) && !(v > 0 && v < Double.POSITIVE_INFINITY)) {
          throw new IllegalArgumentException(
              "ns[" + r + "][" + c + "]: " + v + " (expected: a finite latency > 0, or NaN)");
        }
        flat[r * n + c] = v;
      }
    }
    for (int r = 0; r < n; r++) {
      for (int c = r + 1; c < n; c++) {
        if (Double.isNaN(flat[r * n + c]) && Double.isNaN(flat[c * n + r])) {
          throw new IllegalArgumentException(
              "cpus "
                  + ids[r]
                  + ","
                  + ids[c]
                  + ": not measured (expected: a latency in one direction at least)");
        }
      }
    }
    return new LatencyMatrix(cpus, flat);
  }

  /** {@return the CPUs of the rows and columns} */
  public CpuSet cpus() {
    return cpus;
  }

  /**
   * Returns the latency measured from one CPU to another.
   *
   * @param from a CPU of {@link #cpus()}
   * @param to a CPU of {@link #cpus()}
   * @return the one-way latency in ns; {@code NaN} on the diagonal or where not measured
   * @throws IllegalArgumentException if a CPU is not in {@link #cpus()}
   */
  public double ns(int from, int to) {
    return ns[index(from) * ids.length + index(to)];
  }

  /**
   * Returns a pair's latency: the larger of its measured directions.
   *
   * @param a a CPU of {@link #cpus()}
   * @param b a CPU of {@link #cpus()}
   * @return the latency in ns, over 0; 0 if {@code a == b}
   * @throws IllegalArgumentException if a CPU is not in {@link #cpus()}
   */
  public double pairNs(int a, int b) {
    return a == b ? 0 : pair(index(a), index(b));
  }

  /** The pair latency by row and column index; 0 on the diagonal. */
  double pair(int r, int c) {
    if (r == c) {
      return 0;
    }
    double there = ns[r * ids.length + c];
    double back = ns[c * ids.length + r];
    return Double.isNaN(there) ? back : Double.isNaN(back) ? there : Math.max(there, back);
  }

  /**
   * Returns this matrix restricted to some of its CPUs.
   *
   * @param subset CPUs of {@link #cpus()}, at least one
   * @return a matrix of {@code subset}'s rows and columns
   * @throws IllegalArgumentException if {@code subset} is empty or names a CPU not in {@link
   *     #cpus()}
   */
  public LatencyMatrix restrict(CpuSet subset) {
    requireAll(subset, "subset");
    int[] keep = subset.toArray();
    double[][] rows = new double[keep.length][keep.length];
    for (int r = 0; r < keep.length; r++) {
      for (int c = 0; c < keep.length; c++) {
        rows[r][c] = ns(keep[r], keep[c]);
      }
    }
    return of(subset, rows);
  }

  /**
   * Returns the matrix as a table: a header of CPU ids, then a row per CPU of one-way latencies in
   * ns to one decimal ({@code -} where not measured), each CPU of {@code marked} starred; columns
   * are right-aligned, at least 7 characters wide and one space apart.
   *
   * @param marked the CPUs to star, as a choice's; may be empty
   * @return lines separated by {@code \n}, ending with one
   */
  public String table(CpuSet marked) {
    Objects.requireNonNull(marked, "marked");
    int n = ids.length;
    String[][] cells = new String[n + 1][n + 1];
    cells[0][0] = "ns";
    for (int r = 0; r < n; r++) {
      cells[0][r + 1] = label(ids[r], marked);
      cells[r + 1][0] = cells[0][r + 1];
      for (int c = 0; c < n; c++) {
        double v = ns[r * n + c];
        cells[r + 1][c + 1] = Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
      }
    }
    int width = 6;
    for (String[] row : cells) {
      for (String cell : row) {
        width = Math.max(width, cell.length());
      }
    }
    String column = "%" + (width + 1) + "s";
    StringBuilder out = new StringBuilder();
    for (String[] row : cells) {
      for (String cell : row) {
        out.append(String.format(Locale.ROOT, column, cell));
      }
      out.append('\n');
    }
    return out.toString();
  }

  private static String label(int cpu, CpuSet marked) {
    return (marked.contains(cpu) ? "*" : "") + cpu;
  }

  /** Refuses a set that is empty or not within this matrix, naming what it is. */
  void requireAll(CpuSet subset, String name) {
    Objects.requireNonNull(subset, name);
    if (subset.isEmpty() || !cpus.containsAll(subset)) {
      throw new IllegalArgumentException(
          name
              + ": "
              + (subset.isEmpty() ? "empty" : subset)
              + " (expected: CPUs of the matrix, "
              + cpus
              + ")");
    }
  }

  /** The row of a CPU. */
  int index(int cpu) {
    int i = Arrays.binarySearch(ids, cpu);
    if (i < 0) {
      throw new IllegalArgumentException(
          "cpu: " + cpu + " (expected: one of the matrix's CPUs, " + cpus + ")");
    }
    return i;
  }

  /** {@return the raw row-major values of the {@code n}-by-{@code n} matrix, a copy} */
  double[] values() {
    return ns.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LatencyMatrix m && cpus.equals(m.cpus) && Arrays.equals(ns, m.ns);
  }

  @Override
  public int hashCode() {
    return 31 * cpus.hashCode() + Arrays.hashCode(ns);
  }

  /** {@return a one-line summary: the CPUs and the lowest and highest pair latency} */
  @Override
  public String toString() {
    double low = Double.POSITIVE_INFINITY;
    double high = 0;
    for (int r = 0; r < ids.length; r++) {
      for (int c = r + 1; c < ids.length; c++) {
        low = Math.min(low, pair(r, c));
        high = Math.max(high, pair(r, c));
      }
    }
    return ids.length < 2
        ? "LatencyMatrix[" + cpus + "]"
        : String.format(Locale.ROOT, "LatencyMatrix[%s: %.1f-%.1f ns a pair]", cpus, low, high);
  }
}
