package io.github.affinitykit.watchdog;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.ExclusivityAudit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.watchdog.WatchEvent.Kind;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Checks a kit's pinned threads periodically, so that pinning that breaks in production (a CPU
 * offlined, a cpuset narrowed by Kubernetes or {@code runc update}, a {@code taskset} on the
 * process, a lock file deleted, a noisy neighbour on a "dedicated" core) is found without the
 * application asking: every check verifies each open lease ({@link
 * io.github.affinitykit.core.CpuLease#verify()}: LOST) and checks its mask ({@link
 * io.github.affinitykit.core.CpuLease#check()}: MOVED), re-pins a moved thread by its {@link
 * RepinPolicy}, and optionally audits the pinned CPUs ({@link WatchdogBuilder#audit}: INTRUDED).
 * Each change is a {@link WatchEvent} told to the listeners, counted ({@link #count}), committed to
 * JDK Flight Recorder, and seen in the groups' and factories' assignments (a moved member says
 * MOVED and why; a re-pinned one names the move it undid). With a recording on, every check also
 * commits one {@code io.github.affinitykit.PinnedCpu} event per pinned thread.
 *
 * <pre>{@code
 * try (Watchdog dog = Watchdog.builder(kit).period(Duration.ofSeconds(1))
 *     .repin(RepinPolicy.REPIN).listener(e -> log.warn(e.toString())).start()) {
 *   ...
 * }
 * }</pre>
 *
 * <p>Off by default: nothing checks until a watchdog is started. Its one daemon thread, {@code
 * affinity-watchdog}, runs on the housekeeping CPUs ({@link WatchdogBuilder#cpus}); a check without
 * an audit costs one {@code sched_getaffinity} and one lock-file check per lease.
 *
 * <p>Thread safety: safe for concurrent use; checks are serialised (the thread's and {@link
 * #checkNow()}'s), the accessors read counters and the last report from any thread.
 */
public final class Watchdog implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(Watchdog.class.getName());

  private final WatchdogBuilder.Settings config;
  private final WatchPass pass;
  private final CpuSet cpus;
  private final AtomicLongArray counts = new AtomicLongArray(Kind.values().length);
  private final AtomicLong checks = new AtomicLong();
  private final AtomicLong listenerFailures = new AtomicLong();
  private final AtomicLong checkFailures = new AtomicLong();
  private volatile Optional<WatchReport> last = Optional.empty();
  private volatile String placement = "not started";
  private volatile boolean closed;
  private Thread thread; // guarded by this

  Watchdog(WatchdogBuilder.Settings config) {
    this.config = config;
    this.pass = new WatchPass(config);
    this.cpus = config.cpus();
  }

  /**
   * Returns a builder of a watchdog of {@code kit}'s leases.
   *
   * @param kit the kit whose pinned threads to watch
   * @return a new builder: every second, no audit, {@link RepinPolicy#REPORT}, no listener
   */
  public static WatchdogBuilder builder(AffinityKit kit) {
    return new WatchdogBuilder(kit);
  }

  /**
   * Starts the periodic checks on a daemon thread of their own, the first one a period from now.
   *
   * @return this watchdog
   * @throws IllegalStateException if already started or closed
   */
  public synchronized Watchdog start() {
    if (closed || thread != null) {
      throw new IllegalStateException(
          "watchdog: " + (closed ? "closed" : "started") + " (expected: built, not started)");
    }
    thread = new Thread(this::run, "affinity-watchdog");
    thread.setDaemon(true);
    thread.start();
    return this;
  }

  private void run() {
    placement = confine(config.kit().backend(), cpus);
    long periodNs = config.period().toNanos();
    long next = System.nanoTime() + periodNs;
    while (!closed) {
      long wait = next - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(this, wait);
        continue; // woken early (close, spurious): look again
      }
      next = Math.max(next + periodNs, System.nanoTime() + periodNs / 2); // no burst after a stall
      try {
        checkNow();
      } catch (RuntimeException | Error e) { // a check that fails must not end the checks
        failed(checkFailures, "watchdog check failed (further failures are only counted)", e);
      }
    }
  }

  private static String confine(AffinityBackend backend, CpuSet cpus) {
    if (!backend.isSupported()) {
      return "where it started: " + backend.reason();
    }
    try {
      backend.setAffinity(0, cpus);
      return "on CPUs " + cpus;
    } catch (RuntimeException e) {
      return "where it started: " + e.getMessage();
    }
  }

  /**
   * Checks every open lease now, on the calling thread (after any check in progress), and tells the
   * listeners of each change.
   *
   * @return what the check found
   */
  public WatchReport checkNow() {
    // Lock order: the check monitor (pass), then (a listener closing a lease's seat) a group's,
    // then the reservations'; the leases' checks and re-pins take none (one compare-and-set state).
    synchronized (pass) { // the listeners too: one event at a time, in the order found
      WatchReport r = pass.check();
      checks.incrementAndGet();
      r.events().forEach(e -> counts.incrementAndGet(e.kind().ordinal()));
      last = Optional.of(r);
      for (WatchEvent e : r.events()) {
        for (Consumer<WatchEvent> l : config.listeners()) {
          try {
            l.accept(e);
          } catch (RuntimeException | Error ex) {
            failed(listenerFailures, "watchdog listener failed (further failures are counted)", ex);
          }
        }
      }
      return r;
    }
  }

  /** Counts a failure and logs the first; the JVM's own errors are not the watchdog's to keep. */
  private static void failed(AtomicLong count, String message, Throwable t) {
    if (t instanceof VirtualMachineError vm) {
      throw vm;
    }
    if (count.getAndIncrement() == 0) {
      LOG.log(Level.WARNING, message, t);
    }
  }

  /**
   * Returns how many changes of {@code kind} the checks found.
   *
   * @param kind the kind of change
   * @return a monotonic count since the watchdog was built
   */
  public long count(Kind kind) {
    return counts.get(Objects.requireNonNull(kind, "kind").ordinal());
  }

  /**
   * Returns how many checks have run.
   *
   * @return a monotonic count, the periodic and {@link #checkNow()}'s
   */
  public long checks() {
    return checks.get();
  }

  /**
   * Returns how many times a listener threw.
   *
   * @return a monotonic count; the first failure is also logged ({@link System.Logger})
   */
  public long listenerFailures() {
    return listenerFailures.get();
  }

  /**
   * Returns how many periodic checks threw (the thread goes on).
   *
   * @return a monotonic count; the first failure is also logged ({@link System.Logger})
   */
  public long checkFailures() {
    return checkFailures.get();
  }

  /**
   * Returns the last check's report.
   *
   * @return the report of the last check; empty before the first
   */
  public Optional<WatchReport> lastReport() {
    return last;
  }

  /**
   * Returns the last audit of the pinned CPUs.
   *
   * @return the last check's audit; empty if it did not audit (no audit asked, no CPU pinned)
   */
  public Optional<ExclusivityAudit> lastAudit() {
    return last.flatMap(WatchReport::audit);
  }

  /**
   * Returns the time between checks.
   *
   * @return the period, as built
   */
  public Duration period() {
    return config.period();
  }

  /**
   * Returns what the watchdog does with a moved thread.
   *
   * @return the policy, as built
   */
  public RepinPolicy repinPolicy() {
    return config.repin();
  }

  /**
   * Returns the CPUs the watchdog's thread is confined to once started.
   *
   * @return the housekeeping CPUs, or those given to {@link WatchdogBuilder#cpus}
   */
  public CpuSet cpus() {
    return cpus;
  }

  /**
   * Returns whether the periodic checks run.
   *
   * @return true from {@link #start()} until {@link #close()}
   */
  public synchronized boolean isRunning() {
    return thread != null && !closed && thread.isAlive();
  }

  /** The periodic checks' thread; null before {@link #start()} (tests). */
  synchronized Thread thread() {
    return thread;
  }

  /**
   * Stops the periodic checks and waits for a check in progress (up to a period and its audit, then
   * interrupts it and waits a second more). Idempotent; leaves the leases as they are; may be
   * called from a listener.
   */
  @Override
  public void close() {
    Thread t;
    synchronized (this) {
      closed = true;
      t = thread;
    }
    if (t != null && t != Thread.currentThread()) {
      LockSupport.unpark(t);
      try {
        t.join(
            config.period().toMillis() + config.audit().map(Duration::toMillis).orElse(0L) + 1000);
        if (t.isAlive()) { // stuck in a listener or a check: ask it to stop waiting
          t.interrupt();
          t.join(1000);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("Watchdog[every ").append(config.period());
    sb.append(", ").append(config.repin());
    config.audit().ifPresent(w -> sb.append(", audit ").append(w));
    sb.append(", ").append(checks.get()).append(" checks");
    for (Kind k : Kind.values()) {
      long n = count(k);
      if (n > 0) {
        sb.append(", ").append(k.name().toLowerCase(java.util.Locale.ROOT)).append(' ').append(n);
      }
    }
    return sb.append(", ").append(isRunning() ? placement : "stopped").append(']').toString();
  }
}
