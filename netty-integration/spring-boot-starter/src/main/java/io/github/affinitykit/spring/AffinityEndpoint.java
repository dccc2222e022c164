package io.github.affinitykit.spring;

import io.github.affinitykit.netty.AssignmentReport;
import io.github.affinitykit.netty.LoopAssignment;
import io.github.affinitykit.reactor.PinnedLoopResources;
import io.github.affinitykit.watchdog.WatchEvent;
import io.github.affinitykit.watchdog.Watchdog;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@code /actuator/affinity}: where the server's loops run, how the workers wait, and what the
 * watchdog found; the same as {@link PinnedLoopResources#report()}, as JSON and as its lines.
 *
 * <p>Thread safety: safe for concurrent reads.
 */
@Endpoint(id = "affinity")
public final class AffinityEndpoint {
  private final PinnedLoopResources loops;
  private final Runnable refresh;

  /**
   * Reports {@code loops}.
   *
   * @param loops the server's pinned loops; not null
   * @param refresh run before each read: the meters' refresh (threads come and go); not null
   */
  public AffinityEndpoint(PinnedLoopResources loops, Runnable refresh) {
    this.loops = Objects.requireNonNull(loops, "loops");
    this.refresh = Objects.requireNonNull(refresh, "refresh");
  }

  /**
   * Returns the report now.
   *
   * @return a new snapshot
   */
  @ReadOperation
  public Report report() {
    refresh.run();
    AssignmentReport r = loops.report();
    Map<String, Long> watchdog = new LinkedHashMap<>();
    loops.watchdog().ifPresent(dog -> counts(dog, watchdog));
    return new Report(
        r.transport().transport().name(),
        r.transport().reason(),
        r.loops(),
        r.waits(),
        Collections.unmodifiableMap(watchdog),
        List.of(r.toString().split(System.lineSeparator())));
  }

  private static void counts(Watchdog dog, Map<String, Long> out) {
    out.put("checks", dog.checks());
    for (WatchEvent.Kind kind : WatchEvent.Kind.values()) {
      out.put(kind.name().toLowerCase(Locale.ROOT), dog.count(kind));
    }
  }

  /**
   * What {@code /actuator/affinity} answers.
   *
   * <p>Thread safety: immutable as {@link AffinityEndpoint#report()} makes it (its lists and map
   * unmodifiable).
   *
   * @param transport the transport in use: IO_URING, EPOLL or NIO
   * @param transportReason why that one
   * @param loops every loop: boss, then workers
   * @param waits how the workers wait when idle, and why
   * @param watchdog the watchdog's checks and events by kind; empty when it is off
   * @param text the report as {@link PinnedLoopResources#report()} prints it, line by line
   */
  public record Report(
      String transport,
      String transportReason,
      List<LoopAssignment> loops,
      List<String> waits,
      Map<String, Long> watchdog,
      List<String> text) {}
}
