package io.github.affinitykit.watchdog;

import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.ExclusivityAudit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.lease.LeaseSteps;
import io.github.affinitykit.hostreport.proc.TaskStatus;
import io.github.affinitykit.watchdog.WatchEvent.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One watchdog's checks, and what it remembers between them: each CPU's last verdict, the leases it
 * told MOVED and those it could not re-pin (each told once per move), each thread's context
 * switches at the last check. Thread safety: confined to the watchdog's lock.
 */
final class WatchPass {
  private final WatchdogBuilder.Settings config;
  private final int pid = (int) ProcessHandle.current().pid();
  private final Map<Integer, Kind> verdicts = new HashMap<>();
  // the number of the move last told MOVED, and NOT_REPINNED, per lease: a move after a re-pin
  // (this watchdog's, another's or the application's) has a new number and is told again
  private final Map<CpuLease, Integer> moved = new HashMap<>();
  private final Map<CpuLease, Integer> notRepinned = new HashMap<>();
  private final Map<Integer, long[]> switches = new HashMap<>(); // tid -> {vol, invol, nanos}

  WatchPass(WatchdogBuilder.Settings config) {
    this.config = config;
  }

  WatchReport check() {
    long start = System.nanoTime();
    Instant at = Instant.now();
    List<CpuLease> leases = config.kit().leases();
    List<WatchEvent> events = new ArrayList<>();
    for (CpuLease l : leases) {
      lease(l, at, events);
    }
    Optional<ExclusivityAudit> audit = config.audit().flatMap(w -> audit(leases, w, at, events));
    if (WatchFlight.pinnedCpuEnabled()) {
      record(leases, audit);
    }
    Set<CpuLease> open = new HashSet<>(leases); // leases compare by identity
    moved.keySet().retainAll(open);
    notRepinned.keySet().retainAll(open);
    switches.keySet().retainAll(open.stream().map(CpuLease::tid).collect(Collectors.toSet()));
    return new WatchReport(
        at, leases.size(), events, audit, Duration.ofNanos(System.nanoTime() - start));
  }

  private void lease(CpuLease l, Instant at, List<WatchEvent> out) {
    LeaseSteps<CpuLease> steps =
        LeaseSteps.of(); // set: a lease exists, so its class is initialised
    if (steps.verifyLoss(l)) { // also a moved lease's: its status says MOVED first
      String why = "the lock files of cpu " + l.cpu() + " were deleted or replaced under the lease";
      out.add(
          WatchEvent.of(Kind.LOST, at, l, CpuSet.empty(), why + ": another process may take it"));
    }
    l.check();
    int move = steps.move(l); // found by this check, or by the application's since
    if (move > 0 && !Integer.valueOf(move).equals(moved.put(l, move))) {
      out.add(WatchEvent.of(Kind.MOVED, at, l, steps.movedTo(l), l.reason()));
    }
    if (config.repin() != RepinPolicy.REPORT && move > 0) {
      repin(l, steps, move, at, out);
    }
  }

  /** Binds moved lease {@code l} to its CPU again, or (REPLAN) to another when its CPU is gone. */
  private void repin(
      CpuLease l, LeaseSteps<CpuLease> steps, int move, Instant at, List<WatchEvent> out) {
    int from = l.cpu();
    String why = steps.repin(l);
    CpuSet allowed = steps.movedTo(l);
    if (why.isEmpty()) {
      out.add(WatchEvent.of(Kind.REPINNED, at, l, allowed, l.reason()));
      WatchFlight.repinned(l.cpu(), l.tid(), true, allowed.toString(), l.reason());
      return;
    }
    // REPLAN, and its CPU left the allowed set
    boolean replans =
        config.repin() == RepinPolicy.REPLAN && !allowed.isEmpty() && !allowed.contains(from);
    String replan = replans ? steps.replan(l) : "not re-planned";
    if (replan.isEmpty()) { // only the call whose transition happened: told once
      String detail = "re-planned from cpu " + from + " to cpu " + l.cpu() + ": " + why;
      out.add(WatchEvent.of(Kind.REPLANNED, at, l, allowed, detail));
      WatchFlight.repinned(l.cpu(), l.tid(), true, allowed.toString(), detail);
    } else if (steps.move(l) == move // not closed, re-pinned or moved again meanwhile
        && !Integer.valueOf(move).equals(notRepinned.put(l, move))) {
      String detail = replans ? why + "; " + replan : why;
      out.add(WatchEvent.of(Kind.NOT_REPINNED, at, l, steps.movedTo(l), detail));
      WatchFlight.repinned(l.cpu(), l.tid(), false, allowed.toString(), detail);
    }
  }

  /** Audits the pinned CPUs; a CPU's change of verdict is an event named by its first lease. */
  private Optional<ExclusivityAudit> audit(
      List<CpuLease> leases, Duration window, Instant at, List<WatchEvent> out) {
    Map<Integer, CpuLease> byCpu = new HashMap<>();
    leases.forEach(l -> byCpu.putIfAbsent(l.cpu(), l));
    verdicts.keySet().retainAll(byCpu.keySet());
    if (byCpu.isEmpty()) {
      return Optional.empty();
    }
    CpuSet cpus = CpuSet.of(byCpu.keySet().stream().mapToInt(Integer::intValue).toArray());
    ExclusivityAudit audit =
        config.auditor().audit(config.kit().host(), cpus, window, config.kit().pinnedThreadIds());
    audit
        .audited()
        .forEach(
            cpu -> {
              Kind verdict = verdict(audit, cpu);
              Kind prev = verdicts.put(cpu, verdict);
              boolean first = prev == null;
              if (prev == verdict || (first && verdict != Kind.INTRUDED)) {
                return;
              }
              String found = audit.detail(cpu);
              String detail =
                  verdict == Kind.INTRUDED
                      ? found
                      : verdict
                          + (first ? "" : " after " + prev)
                          + (found.isEmpty() ? "" : ": " + found);
              out.add(WatchEvent.of(verdict, at, byCpu.get(cpu), CpuSet.empty(), detail));
            });
    return Optional.of(audit);
  }

  /** A CPU's verdict as the event kind of the same name: EXCLUSIVE, INTRUDED or UNKNOWN. */
  private static Kind verdict(ExclusivityAudit audit, int cpu) {
    return audit.exclusive().contains(cpu)
        ? Kind.EXCLUSIVE
        : audit.intruded().contains(cpu) ? Kind.INTRUDED : Kind.UNKNOWN;
  }

  /** The per-check Flight Recorder event of each pinned thread. */
  private void record(List<CpuLease> leases, Optional<ExclusivityAudit> audit) {
    long now = System.nanoTime();
    for (CpuLease l : leases) {
      Optional<Kind> v =
          audit.filter(a -> a.audited().contains(l.cpu())).map(a -> verdict(a, l.cpu()));
      String intruders =
          audit.filter(a -> a.intruded().contains(l.cpu())).map(a -> a.detail(l.cpu())).orElse("");
      long[] was = switches.get(l.tid());
      TaskStatus t =
          TaskStatus.parse(config.tasks().lines("/proc/" + pid + "/task/" + l.tid() + "/status"));
      long vol = Math.max(0, t.voluntary());
      long invol = Math.max(0, t.involuntary());
      switches.put(l.tid(), new long[] {vol, invol, now});
      WatchFlight.pinnedCpu(
          new PinnedCpuSample(
              l.cpu(),
              l.tid(),
              l.threadName(),
              l.group(),
              l.status().name(),
              v.map(Kind::name).orElse(""),
              intruders,
              was == null ? vol : Math.max(0, vol - was[0]),
              was == null ? invol : Math.max(0, invol - was[1]),
              was == null ? 0 : now - was[2]));
    }
  }
}
