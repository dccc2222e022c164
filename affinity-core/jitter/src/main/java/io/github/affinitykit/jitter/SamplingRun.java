package io.github.affinitykit.jitter;

import io.github.affinitykit.audit.CpuAudit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuGroupBuilder;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.Seat;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.SysFs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * One {@link JitterSampler#run()}: seats and pins the sampling threads, starts them together, reads
 * the counters while they spin (on the calling thread), joins them, and builds the report.
 *
 * <p>Thread safety: used once, by the thread that calls {@link #run()}; the sampling threads and
 * the audit thread hand their results over through latches and joins.
 */
final class SamplingRun {
  private static final long POLL_NS = 1_000_000;
  private static final long START_TIMEOUT_S = 30;
  private static final long JOIN_MS = 10_000;

  private final JitterSampler sampler;
  private final JitterSampler.Settings settings;
  private final int[] cpus;
  private final Spinner[] spinners;
  private final Binding[] bindings;
  private final CountDownLatch bound;
  private final CountDownLatch go = new CountDownLatch(1);
  private volatile long endNanos;

  SamplingRun(JitterSampler sampler) {
    this.sampler = sampler;
    this.settings = sampler.settings();
    this.cpus = sampler.cpus().toArray();
    this.spinners = new Spinner[cpus.length];
    this.bindings = new Binding[cpus.length];
    this.bound = new CountDownLatch(cpus.length);
  }

  JitterReport run() {
    CpuGroupBuilder builder = settings.group().apply(sampler.kit().group("jitter").cpus(cpus));
    try (CpuGroup group = builder.build()) {
      List<Seat> seats = group.joinAll(cpus.length);
      // read while the seats hold it: closing the group gives the isolation up
      Optional<String> isolation = group.isolation().map(i -> "isolation: " + i.reason());
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < cpus.length; i++) {
        spinners[i] =
            new Spinner(
                settings.floorNs(),
                settings.thresholdNs(),
                settings.largest(),
                JitterSampler.LOG_CAPACITY);
        threads.add(thread(i, seats.get(i)));
      }
      threads.forEach(Thread::start);
      try {
        return sample(threads, isolation);
      } finally {
        stop(threads);
      }
    }
  }

  private Thread thread(int i, Seat seat) {
    Thread t =
        new Thread(
            () -> {
              boolean counted = false;
              try (CpuLease lease = seat.bind()) {
                bindings[i] = new Binding(lease.cpu(), lease.tid(), lease.status(), lease.reason());
                bound.countDown();
                counted = true;
                if (go.await(START_TIMEOUT_S, TimeUnit.SECONDS)) {
                  spinners[i].spin(endNanos);
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } finally {
                if (!counted) {
                  bound.countDown();
                }
              }
            },
            "affinitykit-jitter-" + cpus[i]);
    t.setDaemon(true);
    return t;
  }

  private JitterReport sample(List<Thread> threads, Optional<String> isolation) {
    await(bound);
    Set<Integer> counted = new HashSet<>();
    Set<Integer> owners = new HashSet<>();
    for (int i = 0; i < cpus.length; i++) {
      if (bindings[i] == null) {
        bindings[i] = new Binding(-1, -1, LeaseStatus.FAILED, "the sampling thread did not bind");
      } else if (bindings[i].pinned()) {
        counted.add(bindings[i].cpu());
        owners.add(bindings[i].tid());
      }
    }
    Counters counters = new Counters(new SysFs(settings.root()), counted);
    List<Counters.Reading> readings = new ArrayList<>();
    readings.add(counters.read());
    Instant wall = Instant.now();
    long start = System.nanoTime();
    endNanos = start + settings.window().toNanos();
    AtomicReference<CpuAudit> audit = new AtomicReference<>();
    List<String> notes = new CopyOnWriteArrayList<>();
    Thread auditor = settings.audit() ? auditor(owners, audit, notes) : null;
    go.countDown();
    watch(counters, readings);
    join(threads);
    readings.add(counters.read());
    if (auditor != null) {
      join(List.of(auditor));
      if (auditor.isAlive()) {
        notes.add("audit: still running " + JOIN_MS + " ms after the window (expected: done)");
      }
    }
    List<CpuJitter> out = new ArrayList<>();
    List<Gap> flight = new ArrayList<>();
    for (int i = 0; i < cpus.length; i++) {
      CpuJitter c =
          new Results(spinners[i], readings, wall, start)
              .cpu(cpus[i], bindings[i], Optional.ofNullable(audit.get()));
      out.add(c);
      flight.addAll(c.overThreshold());
    }
    GapFlight.gaps(flight);
    notes.addAll(0, counters.notes());
    isolation.ifPresent(i -> notes.add(0, i));
    return new JitterReport(
        settings.window(), settings.floorNs(), settings.thresholdNs(), out, readings.size(), notes);
  }

  /**
   * Until the window ends: re-reads the counters once a gap over the threshold has ended, at most
   * {@code rereads} times and no sooner than {@code window / (rereads + 1)} after the last reading,
   * so that the re-reads spread over the window instead of being spent in its first burst of gaps
   * (the brackets of later gaps would then span the rest of the window).
   */
  private void watch(Counters counters, List<Counters.Reading> readings) {
    int seen = 0;
    int left = settings.rereads();
    long spacingNs = settings.window().toNanos() / (left + 1);
    long last = System.nanoTime();
    for (long now = last; now < endNanos; now = System.nanoTime()) {
      LockSupport.parkNanos(Math.min(POLL_NS, endNanos - now));
      int logged = 0;
      for (Spinner s : spinners) {
        logged += s.logged();
      }
      long t = System.nanoTime();
      if (logged > seen && left > 0 && t - last >= spacingNs && t < endNanos) {
        readings.add(counters.read());
        left--;
        seen = logged;
        last = t;
      }
    }
  }

  private Thread auditor(Set<Integer> owners, AtomicReference<CpuAudit> out, List<String> notes) {
    Set<Integer> tids = owners.isEmpty() ? Set.of(-1) : Set.copyOf(owners);
    CpuSet audited = CpuSet.of(cpus);
    Thread t =
        new Thread(
            () -> {
              try {
                out.set(
                    CpuAudit.run(
                        settings.root(), sampler.kit().host(), audited, settings.window(), tids));
              } catch (RuntimeException e) {
                notes.add("audit: " + e.getMessage() + " (expected: an audit of " + audited + ")");
              }
            },
            "affinitykit-jitter-audit");
    t.setDaemon(true);
    t.start();
    return t;
  }

  private void await(CountDownLatch latch) {
    try {
      if (!latch.await(START_TIMEOUT_S, TimeUnit.SECONDS)) {
        throw new IllegalStateException(
            "sampling threads: not bound after "
                + START_TIMEOUT_S
                + " s (expected: bound at once)");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the sampling threads bound", e);
    }
  }

  private static void join(List<Thread> threads) {
    try {
      for (Thread t : threads) {
        t.join(JOIN_MS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while sampling", e);
    }
  }

  /** Ends the window now if it has not ended (an error on the way), and joins every thread. */
  private void stop(List<Thread> threads) {
    if (go.getCount() > 0) {
      endNanos = System.nanoTime();
      go.countDown();
    }
    for (Spinner s : spinners) {
      if (s != null) {
        s.stop();
      }
    }
    boolean interrupted = Thread.interrupted();
    for (Thread t : threads) {
      try {
        t.join(JOIN_MS);
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
