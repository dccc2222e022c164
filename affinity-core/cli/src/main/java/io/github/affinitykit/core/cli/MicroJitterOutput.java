package io.github.affinitykit.core.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what OpenHFT's {@code net.openhft.affinity.MicroJitterSampler} prints and converts it to
 * the kit's units ({@link ArmRow}). As it is built it prints {@code Warming up...}, {@code Warmup
 * complete. Running jitter tests...}, then after each 30 s round a block, cumulative since the
 * warm-up:
 *
 * <pre>
 * After 15 seconds, the average per hour was
 * 2us	3360
 * 10us	240
 * (a blank line)
 * </pre>
 *
 * <p>{@code After N seconds} counts the time it sampled (a 1 ms spin, then a 1 ms sleep: half the
 * round); each row is one of its thresholds (2, 3, 4, 6, 8, 10, 14, 20, 30, 40, 60, 80, 100, 140,
 * 200, 300, 400, 600, 800 µs, 1, 2, 5, 10, 20, 50, 100 ms; a tab before the rate, read as any
 * blanks, as its published examples show them), counting the gaps from that threshold up to the
 * next, as a rate per hour rounded up ({@code ceil(count · 3600 s / sampled)}); rows without a gap
 * are left out. The count is {@code floor(rate · sampled / 3600 s)}, exact while the time sampled
 * is at most an hour. What it cannot say: a gap's length within its bucket, so the longest gap is
 * at least its bucket's threshold, the p99.99 at most the next threshold, and the time lost at
 * least the sum of the thresholds.
 *
 * <p>Thread safety: stateless.
 */
final class MicroJitterOutput {
  /** Its thresholds, ns, in the order it prints them. */
  static final List<Long> THRESHOLDS_NS =
      List.of(
          2_000L,
          3_000L,
          4_000L,
          6_000L,
          8_000L,
          10_000L,
          14_000L,
          20_000L,
          30_000L,
          40_000L,
          60_000L,
          80_000L,
          100_000L,
          140_000L,
          200_000L,
          300_000L,
          400_000L,
          600_000L,
          800_000L,
          1_000_000L,
          2_000_000L,
          5_000_000L,
          10_000_000L,
          20_000_000L,
          50_000_000L,
          100_000_000L);

  private static final Pattern AFTER =
      Pattern.compile("After (\\d{1,12}) seconds, the average per hour was");
  private static final Pattern ROW = Pattern.compile("(\\d{1,12})(ns|us|ms|sec)\\s+(\\d{1,18})");

  private MicroJitterOutput() {}

  /**
   * One threshold's row.
   *
   * @param thresholdNs the threshold, ns
   * @param perHour the gaps from it to the next, per hour, as printed
   */
  record Count(long thresholdNs, long perHour) {}

  /**
   * One printed block.
   *
   * @param seconds the time sampled, whole seconds
   * @param counts the rows, in the order printed
   */
  record Block(long seconds, List<Count> counts) {
    Block {
      counts = List.copyOf(counts);
    }
  }

  /**
   * Returns the last complete block of {@code lines} (one ended by its blank line).
   *
   * @throws IllegalArgumentException for a row that is not {@code LENGTH<tab>RATE} with one of its
   *     thresholds
   */
  static Optional<Block> lastBlock(List<String> lines) {
    Optional<Block> last = Optional.empty();
    Long seconds = null;
    List<Count> counts = new ArrayList<>();
    for (String line : lines) {
      Matcher after = AFTER.matcher(line.strip());
      if (after.matches()) {
        seconds = Long.valueOf(after.group(1));
        counts = new ArrayList<>();
      } else if (seconds != null && line.isBlank()) {
        last = Optional.of(new Block(seconds, counts));
        seconds = null;
      } else if (seconds != null) {
        counts.add(row(line));
      }
    }
    return last;
  }

  private static Count row(String line) {
    Matcher m = ROW.matcher(line.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "MicroJitterSampler row: " + line + " (expected: a threshold, a tab, a rate per hour)");
    }
    long n = Long.parseLong(m.group(1));
    long ns =
        switch (m.group(2)) {
          case "ns" -> n;
          case "us" -> n * 1_000;
          case "ms" -> n * 1_000_000;
          default -> n * 1_000_000_000;
        };
    if (!THRESHOLDS_NS.contains(ns)) {
      throw new IllegalArgumentException(
          "MicroJitterSampler threshold: "
              + m.group(1)
              + m.group(2)
              + " (expected: one of its thresholds, 2us to 100ms)");
    }
    return new Count(ns, Long.parseLong(m.group(3)));
  }

  /** The gaps a row's rate stands for over {@code seconds} sampled. */
  static long count(Count c, long seconds) {
    return Math.multiplyExact(c.perHour(), seconds) / 3600;
  }

  /** {@code block} in the kit's units, for {@code cpu}, its thread described by {@code thread}. */
  static ArmRow row(int cpu, String thread, Block block) {
    long sampledNs = Math.multiplyExact(block.seconds(), 1_000_000_000L);
    long gaps = 0;
    long lost = 0;
    long max = 0;
    List<long[]> buckets = new ArrayList<>(); // {index, count}
    for (Count c : block.counts()) {
      long n = count(c, block.seconds());
      if (n > 0) {
        gaps += n;
        lost += n * c.thresholdNs();
        max = Math.max(max, c.thresholdNs());
        buckets.add(new long[] {THRESHOLDS_NS.indexOf(c.thresholdNs()), n});
      }
    }
    buckets.sort((a, b) -> Long.compare(a[0], b[0]));
    long need = (long) Math.ceil(ArmRow.P9999 * gaps);
    long seen = 0;
    long p9999 = 0;
    for (long[] b : buckets) {
      seen += b[1];
      if (seen >= need) {
        int next = (int) b[0] + 1;
        p9999 = next < THRESHOLDS_NS.size() ? THRESHOLDS_NS.get(next) : Long.MAX_VALUE;
        break;
      }
    }
    ArmRow.Bound some = gaps == 0 ? ArmRow.Bound.EXACT : ArmRow.Bound.AT_LEAST;
    return new ArmRow(
        cpu,
        thread,
        sampledNs,
        gaps,
        new ArmRow.Amount(max, some),
        new ArmRow.Amount(p9999, gaps == 0 ? ArmRow.Bound.EXACT : ArmRow.Bound.AT_MOST),
        new ArmRow.Amount(lost, some),
        sampledNs == 0 ? 0 : Math.min(1.0, (double) lost / sampledNs),
        "-",
        "-");
  }
}
