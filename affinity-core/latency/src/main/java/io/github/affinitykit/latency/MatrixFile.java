package io.github.affinitykit.latency;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.Optional;

/**
 * The text of a cached matrix: a header line, the key's id, kernel and model, the CPUs, then a row
 * of one-way latencies per CPU ({@code -} where not measured), each exact ({@link
 * Double#toString}).
 *
 * <p>Thread safety: stateless.
 */
final class MatrixFile {
  static final String HEADER = "affinity-kit latency matrix 1";

  private MatrixFile() {}

  static String format(HostKey key, LatencyMatrix matrix) {
    StringBuilder out = new StringBuilder(HEADER).append('\n');
    out.append("key ").append(key.id()).append('\n');
    out.append("kernel ").append(oneLine(key.kernel())).append('\n');
    out.append("model ").append(oneLine(key.model())).append('\n');
    out.append("cpus ").append(matrix.cpus()).append('\n');
    double[] v = matrix.values();
    int n = matrix.cpus().size();
    for (int r = 0; r < n; r++) {
      for (int c = 0; c < n; c++) {
        out.append(c == 0 ? "" : " ").append(Double.isNaN(v[r * n + c]) ? "-" : v[r * n + c]);
      }
      out.append('\n');
    }
    return out.toString();
  }

  /**
   * The matrix of {@code text} if it is one of {@code key}'s; empty if another key's or garbled.
   */
  static Optional<LatencyMatrix> parse(String text, HostKey key) {
    String[] lines = text.split("\n", -1);
    if (lines.length < 6
        || !lines[0].equals(HEADER)
        || !lines[1].equals("key " + key.id())
        || !lines[4].startsWith("cpus ")) {
      return Optional.empty();
    }
    try {
      CpuSet cpus = CpuSet.parse(lines[4].substring(5));
      int n = cpus.size();
      if (n == 0 || lines.length < 5 + n) {
        return Optional.empty();
      }
      double[][] ns = new double[n][];
      for (int r = 0; r < n; r++) {
        String[] cells = lines[5 + r].split(" ", -1);
        if (cells.length != n) {
          return Optional.empty();
        }
        ns[r] = new double[n];
        for (int c = 0; c < n; c++) {
          ns[r][c] = cells[c].equals("-") ? Double.NaN : Double.parseDouble(cells[c]);
        }
      }
      return Optional.of(LatencyMatrix.of(cpus, ns));
    } catch (IllegalArgumentException e) { // a CPU list, a number or the matrix
      return Optional.empty();
    }
  }

  private static String oneLine(String s) {
    return s.replace('\n', ' ').replace('\r', ' ');
  }
}
