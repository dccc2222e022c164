package io.github.affinitykit.latency;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import java.time.Duration;
import java.util.Objects;

/**
 * Measures the core-to-core handoff latency of a set of CPUs: for each pair, a thread pinned to the
 * lower CPU writes a number to a shared cache line and spins until a thread pinned to the other CPU
 * has copied it back ({@link #trips(int)} round trips a batch, one batch of warm-up then seven
 * timed); the pair's one-way latency is the median batch's time per round trip, halved, and stands
 * for both directions. Pairs are measured one after another.
 *
 * <p><b>Cost.</b> Each pair pins two threads of its own that spin at 100% on its two CPUs for its
 * whole measurement (about {@code 8 × trips} round trips: a few ms at the default 5,000 where a
 * round trip takes 100-300 ns), so whatever else runs there is slowed, and other work there shows
 * in the result. An {@code n}-CPU set has {@code n(n-1)/2} pairs: about 0.1 s for 8 CPUs, tens of
 * seconds for 128. Measure once (at install or first start, before the pinned threads run) and keep
 * the matrix with {@link LatencyCache}. A pair without a result within {@link
 * #pairTimeout(Duration)} (a CPU too busy or throttled to run its thread) stops both threads and
 * fails the measurement.
 *
 * <p>Thread safety: immutable; each setter returns a new meter. {@link #measure} may be called from
 * any thread; it blocks until every pair is measured.
 */
public final class LatencyMeter {
  /** Round trips a batch by default. */
  public static final int DEFAULT_TRIPS = 5_000;

  /** The longest a pair may take by default. */
  public static final Duration DEFAULT_PAIR_TIMEOUT = Duration.ofSeconds(5);

  static final int BATCHES = 7;
  static final int MAX_TRIPS = 10_000_000;
  static final Duration MAX_PAIR_TIMEOUT = Duration.ofHours(1);

  private final AffinityBackend backend;
  private final int trips;
  private final Duration pairTimeout;

  private LatencyMeter(AffinityBackend backend, int trips, Duration pairTimeout) {
    this.backend = backend;
    this.trips = trips;
    this.pairTimeout = pairTimeout;
  }

  /**
   * Returns a meter that pins its threads through {@code backend}, with the default trips and
   * timeout.
   *
   * @param backend the backend that pins each measuring thread, as {@code kit.backend()}
   * @return a meter
   * @throws NullPointerException if {@code backend} is null
   */
  public static LatencyMeter on(AffinityBackend backend) {
    return new LatencyMeter(
        Objects.requireNonNull(backend, "backend"), DEFAULT_TRIPS, DEFAULT_PAIR_TIMEOUT);
  }

  /**
   * Returns a meter with another number of round trips a batch: more smooths noise and costs time.
   *
   * @param trips round trips a batch, 1 to 10,000,000
   * @return a new meter
   * @throws IllegalArgumentException if {@code trips} is out of range
   */
  public LatencyMeter trips(int trips) {
    if (trips < 1 || trips > MAX_TRIPS) {
      throw new IllegalArgumentException("trips: " + trips + " (expected: 1 to 10000000)");
    }
    return new LatencyMeter(backend, trips, pairTimeout);
  }

  /**
   * Returns a meter with another limit on a pair's measurement.
   *
   * @param timeout how long a pair may take, 1 ms to 1 h
   * @return a new meter
   * @throws IllegalArgumentException if {@code timeout} is out of range
   */
  public LatencyMeter pairTimeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.compareTo(Duration.ofMillis(1)) < 0 || timeout.compareTo(MAX_PAIR_TIMEOUT) > 0) {
      throw new IllegalArgumentException("pairTimeout: " + timeout + " (expected: 1 ms to 1 h)");
    }
    return new LatencyMeter(backend, trips, timeout);
  }

  /**
   * Measures every pair of {@code cpus}, one after another (see the cost above).
   *
   * @param cpus the CPUs to measure, at least one; each must accept a pinned thread
   * @return the matrix, symmetric: each pair's latency in both directions
   * @throws IllegalArgumentException if {@code cpus} is empty
   * @throws IllegalStateException if the backend cannot pin, a thread cannot be pinned, or a pair
   *     has no result within the timeout
   * @throws InterruptedException if the calling thread is interrupted; the pair's threads stop
   */
  public LatencyMatrix measure(CpuSet cpus) throws InterruptedException {
    Objects.requireNonNull(cpus, "cpus");
    if (cpus.isEmpty()) {
      throw new IllegalArgumentException("cpus: empty (expected: at least one CPU)");
    }
    if (!backend.isSupported()) {
      throw new IllegalStateException(
          "backend: " + backend.reason() + " (expected: a backend that pins threads)");
    }
    int[] ids = cpus.toArray();
    double[][] ns = new double[ids.length][ids.length];
    for (int r = 0; r < ids.length; r++) {
      for (int c = r + 1; c < ids.length; c++) {
        ns[r][c] = HandoffPair.oneWayNs(backend, ids[r], ids[c], trips, BATCHES, pairTimeout);
        ns[c][r] = ns[r][c];
      }
    }
    return LatencyMatrix.of(cpus, ns);
  }

  /** {@return round trips a batch} */
  public int trips() {
    return trips;
  }

  /** {@return the longest a pair may take} */
  public Duration pairTimeout() {
    return pairTimeout;
  }

  @Override
  public String toString() {
    return "LatencyMeter[trips=" + trips + ", pairTimeout=" + pairTimeout + "]";
  }
}
