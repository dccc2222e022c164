package io.github.affinitykit.spring;

import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.netty.SpinLimit;
import io.github.affinitykit.netty.Transport;
import io.github.affinitykit.netty.WaitPolicy;
import io.github.affinitykit.watchdog.RepinPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the WebFlux server's Reactor Netty loops are pinned: {@code affinitykit.netty.*} in {@code
 * application.properties}.
 *
 * <pre>
 * affinitykit.netty.workers=2
 * affinitykit.netty.placement=different-core,any   # or exact CPUs: affinitykit.netty.cpus=2,3
 * affinitykit.netty.wait-policy=auto               # block, spin-then-block, busy-poll, auto
 * affinitykit.netty.watchdog.enabled=true
 * </pre>
 *
 * <p>Thread safety: immutable.
 *
 * @param enabled whether the server's loops are pinned at all (default true)
 * @param workers the number of worker loops; 0 (the default) = the pool's size - 1, at least 1
 * @param cpus the workers' exact CPUs, in loop order; empty (the default) = placed from the pool
 * @param placement how the workers are placed when {@code cpus} is empty (default {@code
 *     different-core, any})
 * @param transport io_uring, epoll, nio, or auto (the default: the first that loads here)
 * @param waitPolicy how idle workers wait (default {@code block}, Netty's)
 * @param spinLimit how long {@code spin-then-block} polls: {@value SpinLimit#RULE} (default 50us)
 * @param watchdog the watchdog of the pinned loops (off by default)
 */
@ConfigurationProperties("affinitykit.netty")
public record AffinityNettyProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue("0") int workers,
    @DefaultValue List<Integer> cpus,
    @DefaultValue({"different-core", "any"}) List<Placement> placement,
    @DefaultValue("auto") Transport transport,
    @DefaultValue("block") WaitPolicy waitPolicy,
    @DefaultValue("50us") String spinLimit,
    @DefaultValue WatchdogProperties watchdog) {
  /**
   * Validates.
   *
   * @param enabled whether the server's loops are pinned at all
   * @param workers the number of worker loops, >= 0; 0 = the pool's size - 1
   * @param cpus the workers' exact CPUs; copied, not null
   * @param placement how the workers are placed; copied, not empty
   * @param transport the transport; not null
   * @param waitPolicy how idle workers wait; not null
   * @param spinLimit {@value SpinLimit#RULE}; not null
   * @param watchdog the watchdog's settings; not null
   * @throws IllegalArgumentException naming the property, its value and the rule
   */
  public AffinityNettyProperties {
    if (workers < 0) {
      throw new IllegalArgumentException(
          "affinitykit.netty.workers: " + workers + " (expected: >= 0, 0 = the pool's size - 1)");
    }
    cpus = List.copyOf(cpus);
    placement = List.copyOf(placement);
    if (placement.isEmpty()) {
      throw new IllegalArgumentException(
          "affinitykit.netty.placement: empty (expected: at least one placement)");
    }
    Objects.requireNonNull(transport, "transport");
    Objects.requireNonNull(waitPolicy, "waitPolicy");
    Objects.requireNonNull(watchdog, "watchdog");
    SpinLimit.parse(spinLimit); // fails with its rule now, not when the server starts
  }

  /**
   * The watchdog of the pinned loops: {@code affinitykit.netty.watchdog.*}.
   *
   * <p>Thread safety: immutable.
   *
   * @param enabled whether a watchdog checks the loops (default false)
   * @param period how often it checks (default 1s)
   * @param repin what it does with a loop whose mask was widened: {@code report} (the default) or
   *     {@code repin}
   */
  public record WatchdogProperties(
      @DefaultValue("false") boolean enabled,
      @DefaultValue("1s") Duration period,
      @DefaultValue("report") RepinPolicy repin) {
    /**
     * Validates.
     *
     * @param enabled whether a watchdog checks the loops
     * @param period how often it checks, at least 1 ms
     * @param repin what it does with a moved loop; not null
     */
    public WatchdogProperties {
      Objects.requireNonNull(period, "period");
      Objects.requireNonNull(repin, "repin");
      if (period.toMillis() < 1) {
        throw new IllegalArgumentException(
            "affinitykit.netty.watchdog.period: " + period + " (expected: >= 1ms)");
      }
    }
  }
}
