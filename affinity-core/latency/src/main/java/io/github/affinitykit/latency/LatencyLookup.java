package io.github.affinitykit.latency;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a matrix came from: the cache, or a measurement made because none fit or one was asked.
 *
 * <p>Thread safety: immutable.
 *
 * @param matrix the matrix of the CPUs asked for
 * @param file the cache file it was read from or written to
 * @param origin whether it was read or measured
 * @param reason why it was measured, or that it was read: one sentence
 */
public record LatencyLookup(LatencyMatrix matrix, Path file, Origin origin, String reason) {
  /** Where a matrix came from. */
  public enum Origin {
    /** Read from the cache: measured earlier on a host with the same key. */
    CACHED,
    /** Measured now: no cached matrix of this key had the CPUs asked for. */
    MEASURED,
    /** Measured now because a refresh was asked. */
    REFRESHED
  }

  /**
   * Checks the parts.
   *
   * @param matrix the matrix; not null
   * @param file the cache file; not null
   * @param origin where it came from; not null
   * @param reason one sentence; not null
   */
  public LatencyLookup {
    Objects.requireNonNull(matrix, "matrix");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(reason, "reason");
  }
}
