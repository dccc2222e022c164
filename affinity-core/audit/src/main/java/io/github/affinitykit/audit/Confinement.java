package io.github.affinitykit.audit;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.Flight;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.os.AffinityException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The rest of this JVM confined to housekeeping CPUs until {@link #close()}: the first confinement,
 * optionally a {@link Sweeper} that confines threads the JVM starts later, and the one undo.
 *
 * <p>{@link #close()} stops the sweeps, then gives every live thread that a confinement moved the
 * mask it had before its first move, and widens to the process's CPUs the threads born confined
 * (started by a confined thread, they inherited the housekeeping mask and were never moved);
 * threads that were on the housekeeping CPUs already, the kit's pinned threads and the threads
 * asked to be kept are left as they are. A thread that ended is simply not there.
 *
 * <p>Thread safety: safe for concurrent use; {@link #close()} is idempotent.
 */
public final class Confinement implements AutoCloseable {
  private final JvmThreads jvm;
  private final CpuSet housekeeping;
  private final Set<Integer> keep;
  private final CpuSet widen;
  private final Map<Integer, CpuSet> before = new ConcurrentHashMap<>();
  private final Set<Integer> alreadyThere = new HashSet<>();
  private final ConfineReport first;
  private final Optional<Sweeper> sweeper;
  private final AtomicBoolean closed = new AtomicBoolean();

  /** Called by {@link JvmThreads}: confines now and starts the sweeps, if a period is given. */
  Confinement(
      JvmThreads jvm,
      CpuSet housekeeping,
      Set<Integer> keep,
      CpuSet widen,
      Optional<Duration> sweepPeriod) {
    this.jvm = jvm;
    this.housekeeping = housekeeping;
    this.keep = Set.copyOf(keep);
    this.widen = widen;
    this.first = record(jvm.confine(housekeeping, this.keep));
    first.already().forEach(e -> alreadyThere.add(e.tid()));
    this.sweeper =
        sweepPeriod.map(p -> new Sweeper(() -> record(jvm.confine(housekeeping, this.keep)), p));
    Flight.get()
        .isolation(
            "confinement",
            housekeeping.toString(),
            "CONFINED",
            first.moved().size()
                + " threads moved"
                + sweepPeriod.map(p -> ", sweeps every " + p).orElse(""));
  }

  private ConfineReport record(ConfineReport r) {
    r.moved().forEach(e -> before.putIfAbsent(e.tid(), e.before()));
    return r;
  }

  /** {@return the first confinement's report: what became of each thread alive then} */
  public ConfineReport report() {
    return first;
  }

  /** {@return the latest sweep's report, the first confinement's without sweeps} */
  public ConfineReport lastReport() {
    return sweeper.map(Sweeper::lastReport).orElse(first);
  }

  /** {@return the CPUs the rest of the JVM is confined to} */
  public CpuSet housekeeping() {
    return housekeeping;
  }

  /**
   * Stops the sweeps and gives the threads their CPUs back (see {@link Confinement}). A thread the
   * kernel refuses is skipped: the undo goes on with the others.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    sweeper.ifPresent(Sweeper::close);
    Flight.get().isolation("confinement", housekeeping.toString(), "FREED", "threads given back");
    Set<Integer> leave = new HashSet<>(jvm.pinnedThreadIds());
    leave.addAll(keep);
    leave.addAll(alreadyThere);
    AffinityBackend backend = jvm.backend();
    for (TaskSample t : jvm.threads()) {
      CpuSet was = before.get(t.tid());
      CpuSet back = was != null ? was : t.allowed().equals(housekeeping) ? widen : null;
      if (back == null || leave.contains(t.tid()) || back.equals(t.allowed())) {
        continue;
      }
      try {
        backend.setAffinity(t.tid(), back);
      } catch (AffinityException | UnsupportedOperationException e) {
        // ESRCH: it ended between the listing and now; anything else: skipped, the rest go on
      }
    }
  }
}
