package io.github.affinitykit.vertx;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.Assignment;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.Seat;
import io.github.affinitykit.core.placement.Placement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The CPU groups of one Vert.x instance's threads: {@code vertx-eventloop} (one CPU per loop,
 * {@code DIFFERENT_CORE} then {@code ANY}), {@code vertx-worker} when workers are pinned too
 * (placed alike, after the loops), and {@code vertx-other}, unpinned, for every other thread:
 * confined to the process's CPUs, so that a thread an event loop creates (the acceptor, a worker,
 * the internal blocking pool) does not inherit the loop's one CPU, as Linux would otherwise have
 * it.
 *
 * <p>Thread safety: safe for concurrent use (the groups synchronise).
 */
final class VertxGroups {
  private final int eventLoops;
  private final CpuGroup loops;
  private final Optional<CpuGroup> workers;
  private final CpuGroup others;
  private final AtomicBoolean created = new AtomicBoolean();

  VertxGroups(AffinityKit kit, int eventLoops, boolean pinWorkers) {
    Objects.requireNonNull(kit, "kit");
    this.eventLoops = eventLoops;
    this.loops =
        kit.group("vertx-eventloop").placements(Placement.DIFFERENT_CORE, Placement.ANY).build();
    this.workers =
        pinWorkers
            ? Optional.of(
                kit.group("vertx-worker")
                    .placements(Placement.DIFFERENT_CORE, Placement.ANY)
                    .build())
            : Optional.empty();
    this.others =
        kit.group("vertx-other")
            .unpinned("not an event loop: confined to the process's CPUs, not its creator's")
            .build();
  }

  /** Plans and reserves the seat of the thread Vert.x names {@code name}. */
  Seat seat(String name, boolean worker) {
    created.set(true);
    switch (ThreadRole.of(name, worker, eventLoops)) {
      case EVENT_LOOP:
        return loops.join(name);
      case WORKER:
        return workers.orElse(others).join(name);
      default:
        return others.join(name);
    }
  }

  /** Where the event loops, then the pinned workers, that have not ended run. */
  List<Assignment> assignments() {
    List<Assignment> all = new ArrayList<>(loops.assignments());
    workers.ifPresent(w -> all.addAll(w.assignments()));
    return all;
  }

  /** Whether every thread made so far has ended (so nothing of this instance is left to report). */
  boolean ended() {
    return created.get() && assignments().isEmpty() && others.assignments().isEmpty();
  }
}
