package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.observe.CpuAudit;
import io.github.affinitykit.core.observe.TaskReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Configures a {@link Watchdog} of one kit's leases: how often it checks, whether it audits the
 * pinned CPUs, what it does with a moved thread, who is told, and where its thread runs.
 *
 * <p>Thread safety: not thread-safe; build on one thread.
 */
public final class WatchdogBuilder {
  /** Audits the given CPUs over a window, the given threads being their owners. */
  @FunctionalInterface
  interface Auditor {
    CpuAudit audit(CpuSet cpus, Duration window, Set<Integer> owners);
  }

  /** What a watchdog is built from: the builder's settings, the thread's CPUs resolved. */
  record Settings(
      AffinityKit kit,
      Duration period,
      Optional<Duration> audit,
      RepinPolicy repin,
      List<WatchListener> listeners,
      CpuSet cpus,
      Auditor auditor,
      TaskReader tasks) {}

  private final AffinityKit kit;
  private Duration period = Duration.ofSeconds(1);
  private Optional<Duration> audit = Optional.empty();
  private RepinPolicy repin = RepinPolicy.REPORT;
  private final List<WatchListener> listeners = new ArrayList<>();
  private Optional<CpuSet> cpus = Optional.empty();
  private Auditor auditor;
  private TaskReader tasks = TaskReader.live();

  WatchdogBuilder(AffinityKit kit) {
    this.kit = Objects.requireNonNull(kit, "kit");
    this.auditor = (c, window, owners) -> CpuAudit.run(Path.of("/"), kit.host(), c, window, owners);
  }

  /**
   * How long from one check to the next (default one second).
   *
   * @param period at least one millisecond, and longer than the audit's window
   * @return this builder
   * @throws IllegalArgumentException if shorter than a millisecond
   */
  public WatchdogBuilder period(Duration period) {
    if (period.toMillis() < 1) {
      throw new IllegalArgumentException("period: " + period + " (expected: >= 1 ms)");
    }
    this.period = period;
    return this;
  }

  /**
   * Audits the pinned CPUs at every check, watching them for {@code window} (off by default: an
   * audit reads every task of the host, a check without one reads one mask per lease). The watchdog
   * reports a CPU found SHARED, and EXCLUSIVE again; the per-CPU Flight Recorder event carries the
   * verdict and the intruders.
   *
   * @param window how long each audit watches; positive, shorter than the period
   * @return this builder
   * @throws IllegalArgumentException if the window is not positive
   */
  public WatchdogBuilder audit(Duration window) {
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("window: " + window + " (expected: > 0)");
    }
    this.audit = Optional.of(window);
    return this;
  }

  /**
   * What to do with a thread found moved (default {@link RepinPolicy#REPORT}).
   *
   * @param policy the policy
   * @return this builder
   */
  public WatchdogBuilder repin(RepinPolicy policy) {
    this.repin = Objects.requireNonNull(policy, "policy");
    return this;
  }

  /**
   * Adds a listener, told of every change in the order found.
   *
   * @param listener the listener
   * @return this builder
   */
  public WatchdogBuilder listener(WatchListener listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
    return this;
  }

  /**
   * The CPUs the watchdog's thread runs on. By default the housekeeping CPUs: those this process
   * may use less the kit's pool, else less the isolated ones, else all of them.
   *
   * @param cpus CPUs this process may use; not empty
   * @return this builder
   * @throws IllegalArgumentException if empty or not all reachable
   */
  public WatchdogBuilder cpus(CpuSet cpus) {
    CpuSet reachable = kit.host().reachable();
    if (cpus.isEmpty() || !reachable.containsAll(cpus)) {
      throw new IllegalArgumentException(
          "cpus: " + cpus + " (expected: CPUs this process may use, within " + reachable + ")");
    }
    this.cpus = Optional.of(cpus);
    return this;
  }

  /** Audits with {@code a} instead of the live host's procfs (tests). */
  WatchdogBuilder auditor(Auditor a) {
    this.auditor = Objects.requireNonNull(a, "auditor");
    return this;
  }

  /** Reads the threads' context switches with {@code reader} (tests). */
  WatchdogBuilder tasks(TaskReader reader) {
    this.tasks = Objects.requireNonNull(reader, "reader");
    return this;
  }

  /** The housekeeping CPUs: reachable less the pool, else less the isolated ones, else all. */
  private CpuSet housekeeping() {
    CpuSet reachable = kit.host().reachable();
    return cpus.orElseGet(
        () -> {
          CpuSet rest = reachable.minus(kit.pool().cpus());
          CpuSet general = reachable.minus(kit.host().isolatedCpus());
          return !rest.isEmpty() ? rest : general.isEmpty() ? reachable : general;
        });
  }

  /**
   * Makes the watchdog without starting its thread: {@link Watchdog#checkNow()} checks on the
   * caller's thread, {@link Watchdog#start()} starts the periodic checks.
   *
   * @return a new watchdog, not started
   * @throws IllegalArgumentException if the audit's window is not shorter than the period
   */
  public Watchdog build() {
    if (audit.isPresent() && audit.get().compareTo(period) >= 0) {
      throw new IllegalArgumentException(
          "audit: " + audit.get() + " (expected: a window shorter than the period " + period + ")");
    }
    return new Watchdog(
        new Settings(
            kit, period, audit, repin, List.copyOf(listeners), housekeeping(), auditor, tasks));
  }

  /**
   * Builds the watchdog and starts its thread.
   *
   * @return the running watchdog; close it to stop
   */
  public Watchdog start() {
    return build().start();
  }
}
