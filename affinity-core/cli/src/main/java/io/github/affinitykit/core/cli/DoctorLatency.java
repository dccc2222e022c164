package io.github.affinitykit.core.cli;

import io.github.affinitykit.core.host.CpuPool;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.latency.HostKey;
import io.github.affinitykit.latency.LatencyCache;
import io.github.affinitykit.latency.LatencyLookup;
import io.github.affinitykit.latency.LatencyMeter;
import io.github.affinitykit.latency.LatencyPlacement;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code doctor --latency N}: the pool's core-to-core latency matrix, from the per-user cache or
 * measured (and cached) now, and the {@code N} CPUs of the pool with the lowest handoff latency,
 * the matrix restricted to the pool with the choice starred.
 *
 * <p>Thread safety: stateless; {@link #text} blocks while it measures.
 */
final class DoctorLatency {
  /** The measurement's cost, in a sentence. */
  static final String COST = "two spinning threads pinned per pair of CPUs while it measures";

  /** Round trips a batch: fewer than the library's default, so the doctor answers soon. */
  static final int TRIPS = 2_000;

  /** A pair's limit: long, so that a busy host answers slowly rather than not at all. */
  static final Duration PAIR_TIMEOUT = Duration.ofSeconds(60);

  private DoctorLatency() {}

  /** The doctor's section: the matrix's origin, the choice and the matrix; or why there is none. */
  static String text(
      CommandSpec spec,
      HostCpus host,
      AffinityBackend backend,
      CpuPool pool,
      int n,
      boolean refresh) {
    if (pool.isEmpty()) {
      return "\nLatency    skipped (empty pool)\n";
    }
    CommandLines.require(
        spec,
        n >= 1 && n <= pool.cpus().size(),
        "--latency",
        n,
        "1 to " + pool.cpus().size() + ", the CPUs of the pool " + pool.cpus());
    LatencyCache cache = LatencyCache.inDefaultDirectory();
    LatencyMeter meter = LatencyMeter.on(backend).trips(TRIPS).pairTimeout(PAIR_TIMEOUT);
    HostKey key = HostKey.of(host);
    LatencyLookup lookup =
        CommandLines.configured(
            spec,
            () -> {
              try {
                return refresh
                    ? cache.refresh(key, pool.cpus(), meter)
                    : cache.matrix(key, pool.cpus(), meter);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("--latency: interrupted while measuring", e);
              }
            });
    return "\nLatency    pool "
        + pool.cpus()
        + ", "
        + lookup.reason()
        + " (cost: "
        + COST
        + ")\n"
        + LatencyPlacement.choose(lookup.matrix(), pool.cpus(), n).report();
  }
}
