package io.github.affinitykit.watchdog;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuAuditor;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.SysFs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Configures a {@link Watchdog} of one kit's leases: how often it checks, whether it audits the
 * pinned CPUs, what it does with a moved thread, who is told, and where its thread runs.
 *
 * <p>Thread safety: not thread-safe; build on one thread.
 */
public final class WatchdogBuilder {
  /** What a watchdog is built from: the builder's settings, the thread's CPUs resolved. */
  record Settings(
      AffinityKit kit,
      Duration period,
      Optional<Duration> audit,
      RepinPolicy repin,
      List<Consumer<WatchEvent>> listeners,
      CpuSet cpus,
      CpuAuditor auditor,
      SysFs tasks) {}

  private final AffinityKit kit;
  private Duration period = Duration.ofSeconds(1);
  private Optional<Duration> audit = Optional.empty();
  private RepinPolicy repin = RepinPolicy.REPORT;
  private final List<Consumer<WatchEvent>> listeners = new ArrayList<>();
  private Optional<CpuSet> cpus = Optional.empty();
  private Optional<CpuAuditor> auditor = Optional.empty();
  private SysFs tasks = new SysFs(Path.of("/"));

  WatchdogBuilder(AffinityKit kit) {
    this.kit = Objects.requireNonNull(kit, "kit");
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
   * reports a CPU found INTRUDED, and EXCLUSIVE again; the per-CPU Flight Recorder event carries
   * the verdict and the intruders. The audit is the artifact {@code
   * io.github.affinitykit:affinity-audit} (the kit's {@link CpuAuditor}); without it every CPU is
   * UNKNOWN and the report's audit says which artifact is missing.
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
   * Adds a listener, told of every change in the order found: on the watchdog's thread (or the
   * thread calling {@link Watchdog#checkNow()}), one event at a time, while that check holds the
   * watchdog's lock, so keep it short. An exception or error it throws (the JVM's own errors aside)
   * is counted ({@link Watchdog#listenerFailures()}) and stops neither the watchdog nor the other
   * listeners.
   *
   * @param listener takes each event; never given null
   * @return this builder
   */
  public WatchdogBuilder listener(Consumer<WatchEvent> listener) {
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

  /** Audits with {@code auditor} instead of the kit's (tests). */
  WatchdogBuilder auditor(CpuAuditor auditor) {
    this.auditor = Optional.of(Objects.requireNonNull(auditor, "auditor"));
    return this;
  }

  /** Reads the threads' context switches from the procfs of {@code reader} (tests). */
  WatchdogBuilder tasks(SysFs reader) {
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
            kit,
            period,
            audit,
            repin,
            List.copyOf(listeners),
            housekeeping(),
            auditor.orElse((h, c, w, o) -> kit.audit(c, w)),
            tasks));
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
