package io.github.affinitykit.jitter;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How many gaps of each length a sampling thread saw: log-2 buckets from the sampler's floor up,
 * bucket {@code i} holding the gaps of {@code floor·2^i} ns or more and less than {@code
 * floor·2^(i+1)} ns (the last one everything longer). No third-party histogram: 40 counters, which
 * at a 1 µs floor reach gaps of 2^40 µs, about 12 days.
 *
 * <p>Every gap at or above the floor is counted, whenever it happened (the sampler reads the clock
 * back to back, not on a schedule, so no gap is missed or counted on the sampler's behalf: there is
 * no coordinated omission to correct).
 *
 * <p>Thread safety: immutable.
 */
public final class GapHistogram {
  /** The number of buckets. */
  public static final int BUCKETS = 40;

  private final long floorNs;
  private final long[] counts;

  /**
   * One bucket.
   *
   * @param fromNs the shortest gap it holds, ns
   * @param toNs the first length it no longer holds, ns; {@link Long#MAX_VALUE} for the last
   * @param count the gaps counted
   */
  public record Bucket(long fromNs, long toNs, long count) {}

  GapHistogram(long floorNs, long[] counts) {
    this.floorNs = floorNs;
    this.counts = Arrays.copyOf(counts, BUCKETS);
  }

  /** The bucket of a gap of {@code gapNs} ns, at or above {@code floorNs}. */
  static int bucket(long gapNs, long floorNs) {
    return Math.min(BUCKETS - 1, 63 - Long.numberOfLeadingZeros(gapNs / floorNs));
  }

  /**
   * Returns the floor: the shortest gap counted.
   *
   * @return the floor in ns, positive
   */
  public long floorNs() {
    return floorNs;
  }

  /**
   * Returns the gaps counted in bucket {@code i}.
   *
   * @param i the bucket, 0 to {@link #BUCKETS} - 1
   * @return its count
   * @throws IndexOutOfBoundsException for another {@code i}
   */
  public long count(int i) {
    return counts[i];
  }

  /**
   * Returns the gaps counted in every bucket.
   *
   * @return the total, 0 or more
   */
  public long totalCount() {
    return Arrays.stream(counts).sum();
  }

  /**
   * Returns the buckets that counted a gap, shortest first.
   *
   * @return the non-empty buckets; unmodifiable, empty if no gap reached the floor
   */
  public List<Bucket> buckets() {
    List<Bucket> out = new ArrayList<>();
    for (int i = 0; i < BUCKETS; i++) {
      if (counts[i] > 0) {
        long to = i == BUCKETS - 1 ? Long.MAX_VALUE : floorNs << (i + 1);
        out.add(new Bucket(floorNs << i, to, counts[i]));
      }
    }
    return List.copyOf(out);
  }

  /**
   * Returns the shortest length that at least {@code fraction} of the gaps counted are below, as
   * the upper end of its bucket: {@code 0.9999} gives the p99.99 gap to within a factor of 2.
   *
   * @param fraction in [0, 1]
   * @return the upper end of the bucket it falls in, ns; 0 if no gap was counted
   * @throws IllegalArgumentException if {@code fraction} is not in [0, 1]
   */
  public long upperBoundNs(double fraction) {
    if (!(fraction >= 0 && fraction <= 1)) {
      throw new IllegalArgumentException("fraction: " + fraction + " (expected: in [0, 1])");
    }
    long total = totalCount();
    long seen = 0;
    for (int i = 0; i < BUCKETS && total > 0; i++) {
      seen += counts[i];
      if (seen >= Math.ceil(fraction * total)) {
        return i == BUCKETS - 1 ? Long.MAX_VALUE : floorNs << (i + 1);
      }
    }
    return 0;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (Bucket b : buckets()) {
      sb.append(sb.length() == 0 ? "" : ", ").append(b.fromNs() / 1000.0).append(" µs+: ");
      sb.append(b.count());
    }
    return sb.length() == 0 ? "no gap" : sb.toString();
  }
}
