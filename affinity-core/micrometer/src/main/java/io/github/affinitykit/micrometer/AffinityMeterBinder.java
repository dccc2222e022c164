package io.github.affinitykit.micrometer;

import io.github.affinitykit.audit.CpuAudit;
import io.github.affinitykit.audit.CpuVerdict;
import io.github.affinitykit.audit.TaskReader;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.watchdog.Watchdog;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Micrometer meters for one {@link AffinityKit}: its pinned threads by lease status, the moves and
 * losses its checks found, each pinned thread's CPU time and context switches, and the latest
 * exclusivity verdict of each audited CPU. Names are dotted and lower case, the thread and the CPU
 * are tags (a Prometheus registry renders {@code affinity.thread.cpu.time} as {@code
 * affinity_thread_cpu_time_seconds_total}):
 *
 * <ul>
 *   <li>{@value #THREADS} (gauge, {@code status}: pinned, shared, moved, lost; one series per
 *       status an open lease can hold, 0 included, so that an alert needs no {@code absent()});
 *   <li>{@value #LEASES_MOVED}, {@value #LEASES_LOST} (function counters: {@link
 *       io.github.affinitykit.core.PinnedLeases#movedTotal()}, {@code lostTotal()});
 *   <li>per open lease, tagged {@code thread}, {@code tid}, {@code cpu}, {@code group}: {@value
 *       #THREAD_CPU_TIME} (function counter, seconds) and {@value #THREAD_CONTEXT_SWITCHES}
 *       (function counter, {@code kind}: voluntary, involuntary), read from {@code
 *       /proc/<pid>/task/<tid>} when scraped (one read per thread serves its meters of one scrape);
 *       a thread whose task files cannot be read (not Linux) has none;
 *   <li>per audited CPU, tagged {@code cpu}: {@value #CPU_VERDICT} (gauge, {@code verdict}:
 *       exclusive, intruded, unknown; 1 for the CPU's verdict, 0 for the others) and {@value
 *       #CPU_INTRUDERS} (gauge), from the latest audit {@link Builder#audits} supplies (a {@link
 *       Builder#watchdog watchdog}'s last audit);
 *   <li>with a {@link Builder#watchdog watchdog}: {@value #WATCHDOG_EVENTS} (function counter,
 *       {@code kind}: moved, lost, repinned, not_repinned, replanned, intruded, exclusive, unknown;
 *       0 included), {@value #WATCHDOG_CHECKS}, {@value #WATCHDOG_CHECK_FAILURES} and {@value
 *       #WATCHDOG_LISTENER_FAILURES} (function counters).
 * </ul>
 *
 * <p>Threads and CPUs come and go: {@link #refresh()} adds the meters of the leases opened since
 * the previous refresh and removes ({@link MeterRegistry#remove}) those of the leases closed, and
 * does the same for the CPUs of the latest audit. {@link #bindTo} refreshes once; call {@link
 * #refresh()} before each scrape (the gateway does) or periodically (a watchdog's check): the
 * binder starts no thread of its own. The kit's gauges and counters are always current; only the
 * set of per-thread and per-CPU meters waits for a refresh. Keep a reference to the binder: the
 * per-thread meters, like Micrometer's own function meters, hold their source weakly, and the
 * binder holds it strongly for as long as the meters are registered (a binder collected leaves them
 * at their last value).
 *
 * <p>Thread safety: {@link #bindTo} and {@link #refresh()} may be called from any thread; they are
 * serialised on the binder. The registries read the meters from any thread.
 */
public final class AffinityMeterBinder implements MeterBinder {
  /** Gauge: open leases by {@code status}. */
  public static final String THREADS = "affinity.threads";

  /** Function counter: leases a check found MOVED, since the kit was made. */
  public static final String LEASES_MOVED = "affinity.leases.moved";

  /** Function counter: leases a check found LOST, since the kit was made. */
  public static final String LEASES_LOST = "affinity.leases.lost";

  /** Function counter, seconds: a pinned thread's user + system CPU time. */
  public static final String THREAD_CPU_TIME = "affinity.thread.cpu.time";

  /** Function counter: a pinned thread's context switches by {@code kind}. */
  public static final String THREAD_CONTEXT_SWITCHES = "affinity.thread.context.switches";

  /** Gauge: 1 for an audited CPU's verdict, 0 for the other verdicts. */
  public static final String CPU_VERDICT = "affinity.cpu.verdict";

  /** Gauge: how many intruders the latest audit found on a CPU. */
  public static final String CPU_INTRUDERS = "affinity.cpu.intruders";

  /** Function counter: changes a {@link Watchdog}'s checks found, by {@code kind}. */
  public static final String WATCHDOG_EVENTS = "affinity.watchdog.events";

  /** Function counter: checks a {@link Watchdog} ran. */
  public static final String WATCHDOG_CHECKS = "affinity.watchdog.checks";

  /** Function counter: periodic checks of a {@link Watchdog} that threw. */
  public static final String WATCHDOG_CHECK_FAILURES = "affinity.watchdog.check.failures";

  /** Function counter: times a {@link Watchdog}'s listener threw. */
  public static final String WATCHDOG_LISTENER_FAILURES = "affinity.watchdog.listener.failures";

  private final AffinityKit kit;
  private final Optional<Watchdog> watchdog;
  private final Supplier<Optional<CpuAudit>> audits;
  private final TaskReader reader;
  private final int pid;
  private final Map<MeterRegistry, BoundMeters> bound = new IdentityHashMap<>(); // guarded by this

  private AffinityMeterBinder(Builder b) {
    this.kit = b.kit;
    this.watchdog = b.watchdog;
    this.audits = b.audits;
    this.reader = b.reader;
    this.pid = b.pid;
  }

  /**
   * Returns a binder of {@code kit}'s threads, read from this JVM's {@code /proc}, without CPU
   * verdicts.
   *
   * @param kit the kit whose leases to measure; not null
   * @return a binder; nothing is registered until {@link #bindTo}
   */
  public static AffinityMeterBinder of(AffinityKit kit) {
    return builder(kit).build();
  }

  /**
   * Returns a builder of a binder of {@code kit}'s threads.
   *
   * @param kit the kit whose leases to measure; not null
   * @return a builder: threads read from this JVM's {@code /proc}, no CPU verdicts
   */
  public static Builder builder(AffinityKit kit) {
    return new Builder(kit);
  }

  /**
   * Registers the kit's meters in {@code registry} and refreshes its per-thread and per-CPU meters;
   * binding the same registry again only refreshes.
   *
   * @param registry the registry; not null
   */
  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    bound.computeIfAbsent(
        registry,
        r -> {
          watchdog.ifPresent(dog -> WatchdogMeters.register(r, dog));
          return new BoundMeters(r, kit);
        });
    refresh();
  }

  /**
   * Adds the meters of the leases opened and the CPUs audited since the previous refresh to every
   * registry bound, and removes those of the leases closed and of the CPUs the latest audit left
   * out (all of them while the audit source has none). Reads the kit's leases (memory) and calls
   * the audit source once; reads one thread's task files for each new lease.
   */
  public synchronized void refresh() {
    List<CpuLease> open = kit.leases();
    List<CpuVerdict> verdicts = audits.get().map(CpuAudit::verdicts).orElse(List.of());
    for (BoundMeters m : bound.values()) {
      m.syncThreads(open, reader, pid);
      m.syncCpus(verdicts);
    }
  }

  @Override
  public String toString() {
    return "AffinityMeterBinder[" + kit.leases().size() + " leases open, pid " + pid + "]";
  }

  /**
   * Builds an {@link AffinityMeterBinder}.
   *
   * <p>Thread safety: not thread-safe; build on one thread, then share the binder.
   */
  public static final class Builder {
    private final AffinityKit kit;
    private Optional<Watchdog> watchdog = Optional.empty();
    private Supplier<Optional<CpuAudit>> audits = Optional::empty;
    private TaskReader reader = TaskReader.live();
    private int pid = (int) ProcessHandle.current().pid();

    private Builder(AffinityKit kit) {
      this.kit = Objects.requireNonNull(kit, "kit");
    }

    /**
     * Sets where the CPU verdicts come from: the latest exclusivity audit, such as a watchdog's. It
     * is called once per {@link #refresh()} and should return an audit already made, not make one
     * (an audit blocks for its window).
     *
     * @param latest the latest audit, or empty while there is none; not null
     * @return this builder
     */
    public Builder audits(Supplier<Optional<CpuAudit>> latest) {
      this.audits = Objects.requireNonNull(latest, "latest");
      return this;
    }

    /**
     * Adds {@code dog}'s counters ({@value #WATCHDOG_EVENTS} by kind, {@value #WATCHDOG_CHECKS},
     * the failures) and takes the CPU verdicts from its last audit ({@link Watchdog#lastAudit()}),
     * as {@link #audits}{@code (dog::lastAudit)}. The watchdog's checks do not refresh the binder:
     * call {@link AffinityMeterBinder#refresh()} as for any binder.
     *
     * @param dog a watchdog of the same kit, started or not; not null
     * @return this builder
     */
    public Builder watchdog(Watchdog dog) {
      Objects.requireNonNull(dog, "dog");
      this.watchdog = Optional.of(dog);
      this.audits = () -> dog.lastAudit().map(CpuAudit::of);
      return this;
    }

    /**
     * Sets where the pinned threads' counters are read: process {@code pid}'s tasks through {@code
     * reader} (a fixture tree in tests). The default is this JVM through {@link TaskReader#live()}.
     *
     * @param reader the task reader; not null
     * @param pid the process whose threads the kit's leases name, 1 or more
     * @return this builder
     */
    public Builder tasks(TaskReader reader, int pid) {
      if (pid < 1) {
        throw new IllegalArgumentException("pid: " + pid + " (expected: >= 1)");
      }
      this.reader = Objects.requireNonNull(reader, "reader");
      this.pid = pid;
      return this;
    }

    /**
     * Builds the binder.
     *
     * @return a binder bound to no registry yet
     */
    public AffinityMeterBinder build() {
      return new AffinityMeterBinder(this);
    }
  }
}
