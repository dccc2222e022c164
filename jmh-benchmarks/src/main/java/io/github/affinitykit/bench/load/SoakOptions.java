package io.github.affinitykit.bench.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * What a soak does.
 *
 * <p>Thread safety: immutable.
 *
 * @param gateway how the gateway JVM is launched
 * @param pin the gateway's {@code --pin}
 * @param heap the gateway's heap, both initial and most ({@code 256m}), touched at start: the
 *     resident set then measures everything but the heap's sizing, which the JVM would otherwise
 *     grow for minutes
 * @param duration how long the load is held (recorded), after {@code warmup}
 * @param warmup the load before recording starts
 * @param rate the steady connections' messages per second, in total
 * @param connections steady echo connections
 * @param churnPerSecond short-lived client cycles started per second (well-behaved and hostile)
 * @param hostilePercent the share of those cycles that are hostile, 0-100
 * @param sampleEvery the time between two samples of the gateway's resources
 * @param out where the report goes
 */
record SoakOptions(
    GatewayLaunch gateway,
    String pin,
    String heap,
    Duration duration,
    Duration warmup,
    long rate,
    int connections,
    double churnPerSecond,
    int hostilePercent,
    Duration sampleEvery,
    Path out) {

  /** Validates: every bad value is named with the rule. */
  SoakOptions {
    Objects.requireNonNull(gateway, "gateway");
    Objects.requireNonNull(pin, "pin");
    Objects.requireNonNull(out, "out");
    LoadConfig.require(
        heap.matches("[1-9][0-9]*[mMgG]"), "--heap", heap, "a size such as 256m or 1g");
    LoadConfig.require(
        pin.matches("unpinned|pinned|exclusive|isolated"),
        "--pin",
        pin,
        "unpinned, pinned, exclusive or isolated");
    LoadConfig.require(
        duration.compareTo(Duration.ofMinutes(1)) >= 0, "--duration", duration, ">= 1m");
    LoadConfig.require(!warmup.isNegative(), "--warmup", warmup, ">= 0");
    LoadConfig.require(rate >= 1, "--rate", rate, ">= 1 message/s");
    LoadConfig.require(connections >= 1, "--connections", connections, ">= 1");
    LoadConfig.require(
        churnPerSecond > 0 && churnPerSecond <= 100, "--churn", churnPerSecond, "> 0, <= 100");
    LoadConfig.require(
        hostilePercent >= 0 && hostilePercent <= 100, "--hostile", hostilePercent, "0-100");
    LoadConfig.require(
        sampleEvery.compareTo(Duration.ofSeconds(1)) >= 0
            && sampleEvery.multipliedBy(SoakTrend.MIN_SAMPLES * 2L).compareTo(duration) <= 0,
        "--sample",
        sampleEvery,
        ">= 1s, and at least " + SoakTrend.MIN_SAMPLES * 2 + " samples in --duration");
  }
}
