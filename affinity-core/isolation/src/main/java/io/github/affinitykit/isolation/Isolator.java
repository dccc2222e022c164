package io.github.affinitykit.isolation;

import io.github.affinitykit.core.CpuIsolator;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Makes CPUs exclusive at runtime and undoes it: plans ({@link #plan}), isolates ({@link
 * #isolate}), finds isolations left by dead processes ({@link #journals()}) and undoes them ({@link
 * #release()}). Everything it reads and writes is under a root ({@code /} for {@link #live}), and
 * the undo record, the journal, is written to {@link #directory()} and forced to disk before the
 * first change.
 *
 * <p>It changes the whole machine (other people's processes, IRQs, cgroups): call it only where a
 * person asked for it. Tests isolate only inside guest kernels.
 *
 * <p>The directory is made {@code 0700}; a directory or journal someone else could have written (a
 * link, another user's, writable by group or others, over 8 MiB, naming a path no isolation writes)
 * is refused and never replayed.
 *
 * <p>Thread safety: immutable; {@link #isolate} (recovery included) and {@link #release()} run
 * under the directory's lock file {@code isolation.lock}, in this JVM or another; an isolation
 * holds its CPUs' reservations in the directory, so two calls never isolate the same CPU, and only
 * one isolation is in force on a machine at a time (their undos would not compose).
 */
public final class Isolator implements CpuIsolator {
  /** System property naming the journal directory; default {@code /run/affinitykit}. */
  public static final String DIRECTORY_PROPERTY = "affinitykit.isolation.dir";

  /** The directory's lock file: one isolator at a time recovers, isolates or releases. */
  static final String LOCK_FILE = "isolation.lock";

  private static final Duration LOCK_WAIT = Duration.ofSeconds(30);

  private final Path root;
  private final TaskAffinity affinity;
  private final Path directory;
  private final Set<Mechanism> allowed;
  private final Duration lockWait;

  private Isolator(
      Path root, TaskAffinity affinity, Path directory, Set<Mechanism> allowed, Duration lockWait) {
    this.root = Objects.requireNonNull(root, "root");
    this.affinity = Objects.requireNonNull(affinity, "affinity");
    this.directory = directory.toAbsolutePath().normalize();
    this.allowed = Set.copyOf(allowed);
    this.lockWait = lockWait;
  }

  /** The same isolator waiting at most {@code wait} for the directory's lock (tests: none). */
  Isolator lockWait(Duration wait) {
    return new Isolator(root, affinity, directory, allowed, wait);
  }

  /**
   * This machine, moving tasks through {@code backend}, journaling in the default directory.
   *
   * @param backend the native layer that sets other tasks' affinities; not null
   * @return an isolator of {@code /}, journaling in {@link #DIRECTORY_PROPERTY}'s directory (read
   *     now), every mechanism allowed
   */
  public static Isolator live(AffinityBackend backend) {
    return new Isolator(
        Path.of("/"),
        TaskAffinity.of(backend),
        Path.of(System.getProperty(DIRECTORY_PROPERTY, "/run/affinitykit")),
        EnumSet.complementOf(EnumSet.of(Mechanism.NONE)),
        LOCK_WAIT);
  }

  /**
   * The host whose {@code /proc} and {@code /sys} are under {@code root} (a copied fixture tree in
   * tests; {@code /} is this machine), moving tasks through {@code backend}, journaling in {@code
   * directory}.
   *
   * @param root the directory holding the host's {@code proc/} and {@code sys/} trees; not null
   * @param backend the native layer that sets other tasks' affinities; not null
   * @param directory where journals and reservations go, made absolute; not null
   * @return an isolator of that host, every mechanism allowed
   */
  public static Isolator at(Path root, AffinityBackend backend, Path directory) {
    return at(root, TaskAffinity.of(backend), directory);
  }

  /** The host under {@code root} with a test's task affinities. */
  static Isolator at(Path root, TaskAffinity affinity, Path directory) {
    return new Isolator(
        root, affinity, directory, EnumSet.complementOf(EnumSet.of(Mechanism.NONE)), LOCK_WAIT);
  }

  /**
   * The same isolator journaling (and reserving) in {@code dir}.
   *
   * @param dir the journal and reservation directory, made absolute; not null
   * @return a new isolator; this one is unchanged
   */
  public Isolator directory(Path dir) {
    return new Isolator(root, affinity, Objects.requireNonNull(dir, "dir"), allowed, lockWait);
  }

  /**
   * The same isolator limited to {@code mechanisms} (e.g. only {@link Mechanism#AFFINITY_SHIELD},
   * to leave cgroups alone).
   *
   * @param mechanisms the mechanisms it may choose from; {@link Mechanism#NONE} is ignored
   * @return a new isolator; this one is unchanged
   * @throws IllegalArgumentException if none is left
   */
  public Isolator mechanisms(Set<Mechanism> mechanisms) {
    EnumSet<Mechanism> m = EnumSet.noneOf(Mechanism.class);
    m.addAll(mechanisms);
    m.remove(Mechanism.NONE);
    if (m.isEmpty()) {
      throw new IllegalArgumentException(
          "mechanisms: " + mechanisms + " (expected: at least one but NONE)");
    }
    return new Isolator(root, affinity, directory, m, lockWait);
  }

  /**
   * The same isolator moving other tasks through {@code backend} (what a kit does with the isolator
   * {@link java.util.ServiceLoader} made: its own backend, never another).
   *
   * @param backend the native layer that sets other tasks' affinities; not null
   * @return a new isolator; this one is unchanged
   */
  @Override
  public Isolator withBackend(AffinityBackend backend) {
    return new Isolator(root, TaskAffinity.of(backend), directory, allowed, lockWait);
  }

  /**
   * The journal (and reservation) directory.
   *
   * @return the directory as an absolute, normalized path; it need not exist yet
   */
  public Path directory() {
    return directory;
  }

  /**
   * Plans the isolation of {@code cpus} for {@code owners} without changing anything: the mechanism
   * and why, every change it would make, what would stay. Needs no permission; a missing one makes
   * the plan {@link IsolationStatus#REFUSED} with the reason.
   *
   * @param cpus the CPUs to isolate: online ones, leaving at least one online CPU out
   * @param owners the kernel thread ids of this JVM's threads that are to run there; may be empty
   * @return the plan, {@link IsolationStatus#PLANNED} or {@link IsolationStatus#REFUSED}
   * @throws IllegalArgumentException if {@code cpus} is empty, not online, or leaves no CPU
   */
  public IsolationReport plan(CpuSet cpus, Set<Integer> owners) {
    return new Isolating(this, scene(cpus, owners)).plan();
  }

  /**
   * Isolates {@code cpus} for {@code owners} (this JVM's threads pinned there, moved into the
   * partition where there is one). Never throws for a missing permission or a kernel refusal: the
   * handle's report says {@link IsolationStatus#REFUSED} and nothing was changed. Under the
   * directory's lock (waited for up to 30 s, else refused): isolations left by dead processes are
   * undone first (before the tasks are read) and reported; one not wholly undone, or a journal not
   * to be trusted, refuses this one, naming it.
   *
   * @param cpus the CPUs to isolate: online ones, leaving at least one online CPU out
   * @param owners the kernel thread ids of this JVM's threads that are to run there; may be empty
   * @return the handle: {@link IsolationStatus#ISOLATED} until closed, or {@link
   *     IsolationStatus#REFUSED}; close it either way
   * @throws IllegalArgumentException if {@code cpus} is empty, not online, or leaves no CPU
   */
  @Override
  public Isolation isolate(CpuSet cpus, Set<Integer> owners) {
    if (cpus.isEmpty() || !permitted()) { // refused below as it is: no directory made, no lock
      return new Isolating(this, scene(cpus, owners)).isolate(List.of());
    }
    Path lockFile = directory.resolve(LOCK_FILE);
    try {
      Trusted.ensureDirectory(directory);
    } catch (IOException e) {
      return refusedNow(cpus, "cannot use the journal directory: " + Step.why(e));
    }
    try (LockedFile lock = LockedFile.lock(lockFile, lockWait).orElse(null)) {
      if (lock == null) {
        return refusedNow(cpus, busy(lockFile));
      }
      List<String> recovered = new ArrayList<>();
      Journals.recover(directory, new KernelFiles(root).fs(), this::kernel)
          .forEach(r -> recovered.addAll(r.recovered()));
      return new Isolating(this, scene(cpus, owners)).isolate(recovered);
    } catch (IOException e) {
      return refusedNow(cpus, "cannot lock " + lockFile + ": " + Step.why(e));
    }
  }

  private Isolation refusedNow(CpuSet cpus, String why) {
    return Isolation.refused(Isolating.refused(cpus, CpuSet.empty(), why, List.of()));
  }

  private String busy(Path lockFile) {
    return "another isolate or release is at work in "
        + directory
        + " (it holds "
        + lockFile
        + " longer than "
        + lockWait.toSeconds()
        + " s): try again once it is done";
  }

  /** Whether this process may isolate at all (else {@link Isolating} refuses, naming why). */
  private boolean permitted() {
    KernelFiles files = new KernelFiles(root);
    return affinity.supported()
        && Permissions.missing(files, directory.toString(), journalWritable()).isEmpty();
  }

  /**
   * Undoes every isolation whose owner is dead (killed, crashed, or from an earlier boot) and
   * deletes its journal once the undo is clean (a journal whose undo left something keeps it, for
   * the next try), under the directory's lock; a file is put back only while it holds what the
   * isolation wrote. An isolation whose owner still runs (holds its owner lock) is left to it and
   * reported {@link IsolationStatus#REFUSED}, and so is a journal not to be trusted or read, never
   * replayed.
   *
   * @return one report per journal released, left to its owner or refused; empty if none; one
   *     {@link IsolationStatus#REFUSED} report if another isolator held the directory's lock
   *     throughout the wait
   */
  public List<IsolationReport> release() {
    KernelFiles files = new KernelFiles(root);
    List<IsolationReport> out = new ArrayList<>();
    if (Trusted.directory(directory).isEmpty() && Files.isDirectory(directory)) {
      Path lockFile = directory.resolve(LOCK_FILE);
      try (LockedFile lock = LockedFile.lock(lockFile, lockWait).orElse(null)) {
        if (lock == null) {
          return List.of(
              Isolating.refused(CpuSet.empty(), CpuSet.empty(), busy(lockFile), List.of()));
        }
        out.addAll(Journals.recover(directory, files.fs(), this::kernel));
      } catch (IOException e) {
        return List.of(
            Isolating.refused(
                CpuSet.empty(),
                CpuSet.empty(),
                "cannot lock " + lockFile + ": " + Step.why(e),
                List.of()));
      }
    }
    for (IsolationJournal j : Journals.find(directory, files.fs())) {
      if (j.owner() == OwnerState.ALIVE) {
        out.add(
            Isolating.refused(j.cpus(), CpuSet.empty(), j.describe() + ": left to it", List.of()));
      } else if (j.owner() == OwnerState.UNKNOWN) {
        out.add(Isolating.refused(j.cpus(), CpuSet.empty(), j.describe(), List.of()));
      }
    }
    return out;
  }

  /**
   * The isolations recorded in the directory, and whether their owners still run.
   *
   * @return one entry per journal file, by name; empty if the directory is missing or unreadable
   */
  public List<IsolationJournal> journals() {
    return Journals.find(directory, new KernelFiles(root).fs());
  }

  Kernel kernel(CpuSet housekeeping) {
    KernelFiles files = new KernelFiles(root);
    CpuSet online = HostCpus.diagnose(root).topology().online();
    return new Kernel(files, affinity, online, housekeeping);
  }

  TaskAffinity affinity() {
    return affinity;
  }

  Set<Mechanism> allowed() {
    return allowed;
  }

  /** Whether the journal can be written: the directory, or its nearest existing parent. */
  boolean journalWritable() {
    Path p = directory;
    while (p != null && !Files.exists(p)) {
      p = p.getParent();
    }
    return p != null && Files.isWritable(p);
  }

  Scene scene(CpuSet cpus, Set<Integer> owners) {
    Objects.requireNonNull(cpus, "cpus");
    Objects.requireNonNull(owners, "owners");
    KernelFiles files = new KernelFiles(root);
    HostCpus host = HostCpus.diagnose(root);
    CpuSet online = host.topology().online();
    if (cpus.isEmpty() || !online.containsAll(cpus)) {
      throw new IllegalArgumentException(
          "cpus: \"" + cpus + "\" (expected: one or more online CPUs of " + online + ")");
    }
    CpuSet rest = online.minus(cpus);
    if (rest.isEmpty()) {
      throw new IllegalArgumentException(
          "cpus: " + cpus + " (expected: at least one online CPU left to the rest of the machine)");
    }
    CpuSet general = rest.minus(host.isolatedCpus());
    return new Scene(
        files,
        host,
        Cgroups.read(files.fs()),
        Task.scan(files.fs()),
        cpus,
        general.isEmpty() ? rest : general,
        owners,
        Owner.self(files.fs()));
  }
}
