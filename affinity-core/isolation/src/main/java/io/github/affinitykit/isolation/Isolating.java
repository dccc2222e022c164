package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.reservation.ReservationResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One isolation being planned or made: refuses without permission or against a conflict, then for
 * each usable mechanism, best first: plan the steps, journal them (forced to disk), check that no
 * other isolation is in force, apply; undo and try the next one if the kernel refuses an essential
 * step; finally narrow any task started meanwhile.
 *
 * <p>Thread safety: confined to the calling thread.
 */
final class Isolating {
  private final Isolator isolator;
  private final Scene s;
  private static final Duration OWNER_WAIT = Duration.ofSeconds(1);
  private final List<String> reasons = new ArrayList<>();

  Isolating(Isolator isolator, Scene scene) {
    this.isolator = isolator;
    this.s = scene;
  }

  IsolationReport plan() {
    Chooser.Choice choice = Chooser.choose(s.files(), s.cgroups(), isolator.allowed());
    reasons.addAll(choice.reasons());
    List<String> dead = new ArrayList<>();
    for (IsolationJournal j : Journals.find(isolator.directory(), s.files().fs())) {
      if (j.owner() == OwnerState.DEAD) {
        dead.add(j.describe() + " (isolate undoes it first)");
      }
    }
    List<String> refusal = refusal();
    otherIsolation().ifPresent(o -> refusal.add(0, o));
    Mechanism m = choice.candidates().get(0);
    List<Change> changes = steps(m).stream().map(Step::planned).toList();
    IsolationReport plan =
        report(IsolationStatus.PLANNED, m, "", changes, Residues.planned(s), dead);
    return refusal.isEmpty() ? plan : refusedPlan(plan, String.join("; ", refusal));
  }

  /**
   * A plan that applying would refuse (no root, a conflict): the whole plan still shows, so that it
   * can be read without root; the status says REFUSED and the refusal why.
   */
  private static IsolationReport refusedPlan(IsolationReport plan, String why) {
    return new IsolationReport(
        IsolationStatus.REFUSED,
        plan.cpus(),
        plan.housekeeping(),
        plan.mechanism(),
        plan.reasons(),
        why,
        plan.ownerPid(),
        "",
        plan.changes(),
        plan.residues(),
        plan.bootCommandLine(),
        plan.recovered());
  }

  /** Isolates; the caller holds the directory's lock (or nothing passes the refusals). */
  Isolation isolate(List<String> recovered) {
    Optional<String> other = otherIsolation();
    if (other.isPresent()) { // said first: it explains the conflicts below
      return Isolation.refused(refused(s.cpus(), s.housekeeping(), other.get(), reasons));
    }
    List<String> refusal = refusal();
    if (!refusal.isEmpty()) {
      return Isolation.refused(
          refused(s.cpus(), s.housekeeping(), String.join("; ", refusal), reasons));
    }
    Optional<String> unfinished = unfinished();
    if (unfinished.isPresent()) {
      return Isolation.refused(refused(s.cpus(), s.housekeeping(), unfinished.get(), reasons));
    }
    Path mine = Journal.file(isolator.directory(), s.self());
    if (Files.exists(mine)) {
      return Isolation.refused(
          refused(
              s.cpus(),
              s.housekeeping(),
              "this JVM (pid "
                  + s.self().pid()
                  + ") already holds an isolation ("
                  + mine
                  + "): close it first",
              reasons));
    }
    Held held = new Held();
    Optional<String> taken = hold(held, Journal.ownerFile(mine));
    if (taken.isPresent()) {
      held.release();
      return Isolation.refused(refused(s.cpus(), s.housekeeping(), taken.get(), reasons));
    }
    Chooser.Choice choice = Chooser.choose(s.files(), s.cgroups(), isolator.allowed());
    reasons.addAll(choice.reasons());
    for (Mechanism m : choice.candidates()) {
      Optional<Isolation> done = attempt(m, held, recovered);
      if (done.isPresent()) {
        return done.get();
      }
    }
    held.release();
    return Isolation.refused(
        refused(s.cpus(), s.housekeeping(), "every mechanism was refused: " + reasons, reasons));
  }

  /** Reserves the CPUs and locks the owner file into {@code held}; why not, if not. */
  private Optional<String> hold(Held held, Path ownerFile) {
    CpuReservations locks = CpuReservations.inDirectory(isolator.directory());
    for (int cpu : s.cpus().toArray()) {
      ReservationResult r = locks.tryReserve(cpu);
      if (!r.isReserved()) {
        return Optional.of("CPU " + cpu + " is taken: " + r.reason());
      }
      held.add(r.orElseThrow());
    }
    try {
      // a doctor asking about it holds it for an instant: a second is plenty
      Optional<LockedFile> owner = LockedFile.lock(ownerFile, OWNER_WAIT);
      if (owner.isEmpty()) {
        return Optional.of(ownerFile + " is locked by another");
      }
      held.owner(owner.get());
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of("cannot lock the owner file " + ownerFile + ": " + Step.why(e));
    }
  }

  /**
   * A journal left that is not wholly undone (its owner dead, its undo failed part-way) or that is
   * not to be trusted: isolating over it would let a later release write its old values over this
   * isolation.
   */
  private Optional<String> unfinished() {
    for (IsolationJournal j : Journals.find(isolator.directory(), s.files().fs())) {
      if (j.owner() == OwnerState.DEAD) {
        return Optional.of(
            j.describe().replaceAll(": run release to undo it.*", "")
                + ", and its undo is not complete (journal "
                + j.journal()
                + "): run release until it is, then isolate");
      }
      if (j.owner() == OwnerState.UNKNOWN) {
        return Optional.of(
            j.describe()
                + ": an isolation may be in force that cannot be undone from here; look at it,"
                + " remove it if nothing of it is left, then isolate");
      }
    }
    return Optional.empty();
  }

  /** One mechanism: journal, check for another isolation, apply, or undo and say why. */
  private Optional<Isolation> attempt(Mechanism m, Held held, List<String> recovered) {
    Path file = Journal.file(isolator.directory(), s.self());
    Journal journal = new Journal(s.self(), s.cpus(), s.housekeeping(), m, steps(m));
    try {
      journal.write(file);
    } catch (IOException e) {
      held.release();
      return Optional.of(
          Isolation.refused(
              refused(
                  s.cpus(),
                  s.housekeeping(),
                  "cannot write the journal " + file + ": " + e,
                  reasons)));
    }
    Optional<String> other = otherIsolation();
    if (other.isPresent()) {
      delete(file);
      held.release();
      return Optional.of(
          Isolation.refused(refused(s.cpus(), s.housekeeping(), other.get(), reasons)));
    }
    Kernel kernel = isolator.kernel(s.housekeeping());
    Applier.Applied applied = Applier.apply(kernel, journal.steps());
    Optional<String> failure = applied.failure();
    if (failure.isEmpty() && m != Mechanism.CGROUP_V1_CPUSET && m != Mechanism.AFFINITY_SHIELD) {
      failure = PartitionPlan.check(s.files(), journal.steps());
    }
    if (failure.isPresent()) {
      List<Change> undone = Applier.rollback(kernel, journal.steps(), applied);
      boolean clean = Applier.clean(undone);
      reasons.add(m + " tried: " + failure.get() + (clean ? "; undone" : "; NOT fully undone"));
      if (!clean) {
        return Optional.of(
            Isolation.leftover(
                refused(s.cpus(), s.housekeeping(), "undo failed", reasons),
                journal,
                file,
                kernel,
                held));
      }
      delete(file);
      return Optional.empty();
    }
    List<Change> changes = new ArrayList<>(applied.changes());
    journal = secondPass(journal, file, kernel, changes);
    List<Residue> residues = new ArrayList<>(Residues.planned(s));
    residues.addAll(Residues.applied(s, changes));
    reasons.add("chosen: " + m);
    IsolationReport report =
        report(IsolationStatus.ISOLATED, m, file.toString(), changes, residues, recovered);
    return Optional.of(Isolation.active(report, journal, file, kernel, held));
  }

  /** Narrows tasks started since the scan; returns the journal with their steps. */
  private Journal secondPass(Journal journal, Path file, Kernel kernel, List<Change> changes) {
    List<Step> more = TaskPlan.secondPass(s, Task.scan(s.files().fs()));
    if (more.isEmpty()) {
      return journal;
    }
    Journal longer = journal.plus(more);
    try {
      longer.write(file);
    } catch (IOException e) {
      reasons.add("tasks started meanwhile not moved: cannot rewrite the journal: " + e);
      return journal;
    }
    changes.addAll(Applier.apply(kernel, more).changes());
    return longer;
  }

  /** Missing permissions, a backend that cannot move tasks, tasks pinned only to the CPUs. */
  private List<String> refusal() {
    List<String> out = new ArrayList<>();
    List<String> missing =
        Permissions.missing(s.files(), isolator.directory().toString(), isolator.journalWritable());
    if (!missing.isEmpty()) {
      out.add("missing permission: " + String.join("; ", missing));
    }
    if (!isolator.affinity().supported()) {
      out.add("this JVM cannot set task affinities (its affinity backend is unsupported)");
    }
    out.addAll(TaskPlan.conflicts(s));
    return out;
  }

  private Optional<String> otherIsolation() {
    for (IsolationJournal j : Journals.find(isolator.directory(), s.files().fs())) {
      if (j.owner() == OwnerState.ALIVE
          && !Path.of(j.journal()).equals(Journal.file(isolator.directory(), s.self()))) {
        return Optional.of(
            j.describe()
                + ": one isolation at a time on a machine (undoing two interleaved ones could not"
                + " restore every mask exactly)");
      }
    }
    return Optional.empty();
  }

  /** Every step of mechanism {@code m} for this scene, as planned. */
  List<Step> steps(Mechanism m) {
    List<Step> out = new ArrayList<>();
    switch (m) {
      case CGROUP_V2_PARTITION:
        out.addAll(PartitionPlan.steps(s, false));
        break;
      case CGROUP_V2_REMOTE_PARTITION:
        out.addAll(PartitionPlan.steps(s, true));
        break;
      case CGROUP_V1_CPUSET:
        out.addAll(CpusetPlan.steps(s));
        break;
      default:
        out.addAll(TaskPlan.shield(s, java.util.Set.of()));
        break;
    }
    out.addAll(IrqPlan.steps(s));
    return out;
  }

  private IsolationReport report(
      IsolationStatus status,
      Mechanism m,
      String journal,
      List<Change> changes,
      List<Residue> residues,
      List<String> recovered) {
    return new IsolationReport(
        status,
        s.cpus(),
        s.housekeeping(),
        m,
        reasons,
        "",
        s.self().pid(),
        journal,
        changes,
        residues,
        Residues.bootCommandLine(s.host(), s.cpus()),
        recovered);
  }

  /** A report of nothing changed, and why. */
  static IsolationReport refused(
      CpuSet cpus, CpuSet housekeeping, String why, List<String> reasons) {
    return new IsolationReport(
        IsolationStatus.REFUSED,
        cpus,
        housekeeping,
        Mechanism.NONE,
        reasons,
        why,
        ProcessHandle.current().pid(),
        "",
        List.of(),
        List.of(),
        "",
        List.of());
  }

  private static void delete(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // a journal left behind names this live process: the next isolate sees it is not dead
    }
  }
}
