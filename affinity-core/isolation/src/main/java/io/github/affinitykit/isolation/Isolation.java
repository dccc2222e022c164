package io.github.affinitykit.isolation;

import io.github.affinitykit.core.CpuIsolation;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.Flight;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * CPUs made exclusive for this JVM's pinned threads: the handle an isolation is. {@link #report()}
 * says what was done; {@link #close()} undoes it (cgroups removed, every mask, IRQ affinity and
 * kernel file put back, checked byte for byte) and frees the CPUs' reservations; {@link
 * #released()} then says what was put back. A refused isolation changed nothing, unless its
 * rollback could not put everything back: then it keeps what is left, says so, and closing it tries
 * the undo again; otherwise closing it is harmless.
 *
 * <p>While in force it holds the lock on its owner file ({@code isolation-<id>.owner} beside the
 * journal): that is what makes it alive to every other process, in any pid namespace. A JVM that
 * exits without closing it undoes it in a shutdown hook; one killed (SIGKILL, a crash) leaves the
 * journal, the kernel drops the lock, and the next {@code isolate}, {@code release} or the doctor
 * finds the dead owner.
 *
 * <p>Thread safety: every method may be called from any thread; {@link #close()} is idempotent.
 */
public final class Isolation implements CpuIsolation {
  private final IsolationReport report;
  private final Optional<Active> active;
  private volatile IsolationReport released;
  private volatile Thread atExit;

  /** What an isolation in force holds. */
  private record Active(Journal journal, Path file, Kernel kernel, Held held) {}

  private Isolation(IsolationReport report, Optional<Active> active) {
    this.report = report;
    this.active = active;
    this.released = report;
  }

  /**
   * Returns the isolation behind a handle core gave out ({@code AffinityKit.isolate}, a group's,
   * factory's or adapter's {@code isolation()}): its whole report.
   *
   * @param handle a handle made by this artifact's {@link Isolator}
   * @return {@code handle} as an isolation
   * @throws IllegalArgumentException if another isolator made it (a test's, or core's own when this
   *     artifact was not found: see its reason)
   */
  public static Isolation of(CpuIsolation handle) {
    if (handle instanceof Isolation i) {
      return i;
    }
    throw new IllegalArgumentException(
        "handle: "
            + handle
            + " ("
            + handle.reason()
            + ") (expected: an isolation made by affinity-isolation's Isolator)");
  }

  static Isolation refused(IsolationReport report) {
    Flight.get()
        .isolation("isolation", report.cpus().toString(), report.status().name(), report.text());
    return new Isolation(report, Optional.empty());
  }

  /**
   * An isolation in force; undone at JVM exit if not closed before (a SIGKILL leaves it to the
   * journal).
   */
  static Isolation active(
      IsolationReport report, Journal journal, Path file, Kernel kernel, Held held) {
    Isolation iso = new Isolation(report, Optional.of(new Active(journal, file, kernel, held)));
    Flight.get()
        .isolation(
            "isolation",
            report.cpus().toString(),
            report.status().name(),
            report.mechanism().name());
    Thread hook = new Thread(iso::close, "affinitykit-isolation-undo");
    Runtime.getRuntime().addShutdownHook(hook);
    iso.atExit = hook;
    return iso;
  }

  /** Refused, but the undo of a failed attempt left something: closing tries again. */
  static Isolation leftover(
      IsolationReport report, Journal journal, Path file, Kernel kernel, Held held) {
    return active(report, journal, file, kernel, held);
  }

  /**
   * What the isolation did (or why it did nothing).
   *
   * @return the report made when isolating, {@link IsolationStatus#ISOLATED} or {@link
   *     IsolationStatus#REFUSED}; closing does not change it (see {@link #released()})
   */
  public IsolationReport report() {
    return report;
  }

  /**
   * The CPUs isolated.
   *
   * @return the CPUs of {@link #report()}, even if refused; isolated only while {@link #isActive()}
   */
  @Override
  public CpuSet cpus() {
    return report.cpus();
  }

  /**
   * Whether the CPUs are isolated now (not refused, not closed).
   *
   * @return true from a successful isolation until {@link #close()}; always false if refused
   */
  @Override
  public boolean isActive() {
    return report.status() == IsolationStatus.ISOLATED && released == report;
  }

  /**
   * What was done or why not, in one line: {@code isolated by <mechanism>}, {@code refused: <why>},
   * or {@code released} once closed.
   *
   * @return the line; never empty
   */
  @Override
  public String reason() {
    IsolationReport now = released;
    return switch (now.status()) {
      case ISOLATED -> "isolated by " + now.mechanism();
      case REFUSED -> "refused: " + now.refusal();
      default ->
          now.status().name().toLowerCase(java.util.Locale.ROOT)
              + (now.journal().isEmpty() ? "" : ": not all undone, journal " + now.journal());
    };
  }

  /**
   * As {@link #admit(int)}, for core ({@link CpuIsolation}).
   *
   * @param tid the kernel thread id of a thread of this JVM
   * @return empty unless the kernel refused it: then its reason
   */
  @Override
  public Optional<String> letIn(int tid) {
    Change c = admit(tid);
    return c.outcome() == Change.Outcome.FAILED ? Optional.of(c.detail()) : Optional.empty();
  }

  /**
   * As {@link #dismiss(int)}, for core ({@link CpuIsolation}).
   *
   * @param tid the kernel thread id of a thread of this JVM
   */
  @Override
  public void letOut(int tid) {
    dismiss(tid);
  }

  /**
   * Lets thread {@code tid} of this JVM onto the isolated CPUs before it is bound there: moves it
   * into the partition (or v1 set) that holds them; nothing to do for the shield.
   *
   * @param tid the kernel thread id of a thread of this JVM
   * @return what was done; {@link Change.Outcome#FAILED} with the kernel's reason if refused
   */
  public Change admit(int tid) {
    return move(tid, true);
  }

  /**
   * Takes thread {@code tid} of this JVM off the isolated CPUs again once it is unbound (its mask
   * restored): back to the JVM's cgroup (or the v1 rest set); the shield narrows its mask.
   *
   * @param tid the kernel thread id of a thread of this JVM
   * @return what was done: {@link Change.Outcome#DONE}; {@link Change.Outcome#UNCHANGED} if not
   *     isolated or nothing was to narrow; {@link Change.Outcome#FAILED} with the reason if refused
   */
  public Change dismiss(int tid) {
    return move(tid, false);
  }

  private synchronized Change move(int tid, boolean in) {
    Change none =
        new Change(Change.Kind.THREAD, tid, "tid " + tid, "", "", Change.Outcome.UNCHANGED, "");
    if (!isActive()) {
      return none.with(Change.Outcome.UNCHANGED, "not isolated");
    }
    Active a = active.orElseThrow();
    List<DirStep> dirs = new ArrayList<>();
    a.journal()
        .steps()
        .forEach(
            st -> {
              if (st instanceof DirStep d) {
                dirs.add(d);
              }
            });
    if (dirs.isEmpty()) {
      return in ? none : narrow(a, tid, none);
    }
    DirStep iso = dirs.get(0);
    String to = in ? iso.path() : dirs.size() > 1 ? dirs.get(1).path() : iso.home();
    try {
      a.kernel().files().write(to + "/" + iso.tasksFile(), Integer.toString(tid));
      return none.with(Change.Outcome.DONE, "moved to " + to);
    } catch (IOException e) {
      return none.with(Change.Outcome.FAILED, Step.why(e));
    }
  }

  private static Change narrow(Active a, int tid, Change none) {
    long pid = ProcessHandle.current().pid();
    Optional<Task> t = Task.read(a.kernel().files().fs(), (int) pid, tid);
    if (t.isEmpty() || !t.get().mask().intersects(a.journal().cpus())) {
      return none;
    }
    try {
      a.kernel().affinity().set(tid, t.get().mask().minus(a.journal().cpus()));
      return none.with(Change.Outcome.DONE, "mask narrowed off " + a.journal().cpus());
    } catch (io.github.affinitykit.core.os.AffinityException e) {
      return none.with(Change.Outcome.FAILED, Step.why(e));
    }
  }

  /**
   * Returns what closing put back: the report of the release (status {@link
   * IsolationStatus#RELEASED}, each change RESTORED, UNCHANGED, LEFT, GONE or FAILED); the
   * isolation's own report before it is closed.
   *
   * @return the release's report once {@link #close()} has undone it; until then, and always for a
   *     refused isolation that left nothing to undo, {@link #report()}
   */
  public IsolationReport released() {
    return released;
  }

  /**
   * Undoes the isolation: files, cgroups and threads first, then every task's mask; frees the CPUs.
   * The journal is deleted once everything is back (kept, for {@code release}, if not). Idempotent.
   */
  @Override
  public synchronized void close() {
    if (active.isEmpty() || released != report) {
      return;
    }
    Active a = active.get();
    Thread hook = atExit;
    if (hook != null && hook != Thread.currentThread()) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is exiting: the hook runs (or already ran) close, which is idempotent
      }
    }
    List<Change> undone = Applier.undo(a.kernel(), a.journal().steps());
    boolean clean = Applier.clean(undone);
    if (clean) {
      try {
        Files.deleteIfExists(a.file());
      } catch (IOException e) {
        // left behind, it names this process: once it is gone, release finds nothing to undo
      }
    }
    a.held().release(); // frees the CPUs; the owner reads dead from now: release may retry
    released =
        new IsolationReport(
            IsolationStatus.RELEASED,
            report.cpus(),
            report.housekeeping(),
            report.mechanism(),
            report.reasons(),
            "",
            report.ownerPid(),
            clean ? "" : a.file().toString(),
            undone,
            List.of(),
            "",
            List.of());
    Flight.get()
        .isolation(
            "isolation",
            report.cpus().toString(),
            IsolationStatus.RELEASED.name(),
            clean ? "undone" : "not all undone: journal " + a.file());
  }

  @Override
  public String toString() {
    return "Isolation["
        + released.status()
        + " "
        + report.cpus()
        + " by "
        + report.mechanism()
        + "]";
  }
}
