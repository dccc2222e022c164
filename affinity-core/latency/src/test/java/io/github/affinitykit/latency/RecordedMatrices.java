package io.github.affinitykit.latency;

import io.github.affinitykit.core.cpu.CpuSet;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The published matrices of the test resources (each file names its source and licence): a row per
 * CPU, comma-separated, with the cells the tool did not measure (the upper triangle) empty.
 */
final class RecordedMatrices {
  /** AMD Ryzen 9 5950X, Zen 3: CCD 0 is CPUs 0-7 and 16-23, CCD 1 is 8-15 and 24-31. */
  static final String RYZEN_5950X = "ryzen-9-5950x.csv";

  /** AMD Threadripper 3960X, Zen 2: CCXs of three cores, 0-2, 3-5, ..., 21-23 (+24 siblings). */
  static final String THREADRIPPER_3960X = "threadripper-3960x.csv";

  /** Two Intel Xeon E5-2690: socket 0 is CPUs 0-7 and 16-23, socket 1 is 8-15 and 24-31. */
  static final String DUAL_XEON_E5_2690 = "dual-xeon-e5-2690.csv";

  static final CpuSet CCD0 = CpuSet.parse("0-7,16-23");
  static final CpuSet CCD1 = CpuSet.parse("8-15,24-31");
  static final CpuSet SOCKET0 = CCD0;
  static final CpuSet SOCKET1 = CCD1;

  private RecordedMatrices() {}

  static LatencyMatrix load(String name) {
    try (InputStream in =
        Objects.requireNonNull(RecordedMatrices.class.getResourceAsStream(name), name)) {
      List<String> rows =
          new String(in.readAllBytes(), StandardCharsets.UTF_8)
              .lines()
              .filter(l -> !l.startsWith("#") && !l.isBlank())
              .toList();
      int n = rows.size();
      double[][] ns = new double[n][n];
      for (int r = 0; r < n; r++) {
        String[] cells = rows.get(r).split(",", -1);
        Arrays.fill(ns[r], Double.NaN);
        for (int c = 0; c < Math.min(n, cells.length); c++) {
          ns[r][c] = cells[c].isEmpty() ? Double.NaN : Double.parseDouble(cells[c]);
        }
      }
      return LatencyMatrix.of(CpuSet.range(0, n - 1), ns);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The CCX (three cores and their siblings) of a Threadripper 3960X CPU. */
  static CpuSet ccx3960(int cpu) {
    int first = (cpu % 24) / 3 * 3;
    return CpuSet.range(first, first + 2).union(CpuSet.range(first + 24, first + 26));
  }
}
