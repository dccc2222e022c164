package io.github.affinitykit.spring;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroupBuilder;
import io.github.affinitykit.netty.PinnedServerGroups;
import io.github.affinitykit.netty.ServerGroupsBuilder;
import io.github.affinitykit.netty.SpinLimit;
import io.github.affinitykit.reactor.PinnedLoopResources;
import io.github.affinitykit.watchdog.Watchdog;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Builds the server's pinned loops from {@code affinitykit.netty.*}: workers placed (or on their
 * exact CPUs), the boss beside them, the wait policy, and the watchdog when enabled (its events
 * logged, one line each); every loop started, so each is pinned before the first request.
 *
 * <p>Thread safety: stateless.
 */
final class ServerLoops {
  private static final Log LOG = LogFactory.getLog(ServerLoops.class);

  private ServerLoops() {}

  static PinnedLoopResources create(AffinityKit kit, AffinityNettyProperties p) {
    CpuGroupBuilder workers = kit.group("worker");
    int count = p.workers();
    if (p.cpus().isEmpty()) {
      workers.placements(p.placement());
    } else {
      workers.cpus(p.cpus().stream().mapToInt(Integer::intValue).toArray());
      count = count == 0 ? p.cpus().size() : count;
    }
    ServerGroupsBuilder b =
        PinnedServerGroups.builder(kit)
            .transport(p.transport())
            .waitPolicy(p.waitPolicy())
            .spinLimit(SpinLimit.parse(p.spinLimit()))
            .workerGroup(workers);
    if (count > 0) {
      b.workers(count);
    }
    PinnedServerGroups groups = b.build();
    try {
      PinnedLoopResources loops =
          p.watchdog().enabled()
              ? PinnedLoopResources.of(groups, watchdog(kit, p.watchdog()))
              : PinnedLoopResources.of(groups);
      return loops.start();
    } catch (RuntimeException e) { // frees the CPUs of the loops that started
      groups.close();
      throw e;
    }
  }

  private static Watchdog watchdog(AffinityKit kit, AffinityNettyProperties.WatchdogProperties w) {
    return Watchdog.builder(kit)
        .period(w.period())
        .repin(w.repin())
        .listener(e -> LOG.warn("affinitykit: watchdog: " + e))
        .build();
  }
}
