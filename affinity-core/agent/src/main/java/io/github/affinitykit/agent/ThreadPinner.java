package io.github.affinitykit.agent;

import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.cpu.CpuSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Binds the threads the rules name, each through a seat of its rule's group: a new thread on itself
 * as its {@code run()} starts ({@link #started}), and at every {@link #scan} the threads already
 * running when the agent loaded and those renamed since (by kernel id, found in the thread dump). A
 * thread renamed out of its rule is let go (its lease closed, its mask restored); one renamed into
 * another rule is bound there. A thread's lease is closed when its {@code run()} ends, or at the
 * first scan that finds it dead. The virtual-thread scheduler's carriers bind by the carriers rule,
 * whatever their names ({@link Carriers}). At JVM exit every lease is closed ({@link #close}).
 *
 * <p>On Linux a new thread inherits the mask of the thread that starts it: a thread no rule names,
 * started by a thread this pinner pinned, would run on that one CPU for its whole life. As its
 * {@code run()} starts it is given the mask the process had when the agent loaded ({@link
 * #uninherit}): one more {@code sched_getaffinity} per such thread start while any thread is bound.
 *
 * <p>Thread safety: safe for concurrent use: the bindings are a concurrent map, each thread's entry
 * changed by the thread itself (start, end) or by the one scanning thread.
 */
final class ThreadPinner {
  static final String CARRIER =
      "a carrier of the virtual-thread scheduler cannot be pinned after the JVM started (expected:"
          + " the rule at start-up, -javaagent)";
  private final ThreadRules rules;
  private final TidBackend backend;
  private final Consumer<String> out;
  private final boolean attached;
  private final Carriers carriers;
  private final CpuSet processMask;
  private final Map<Thread, Bound> bound = new ConcurrentHashMap<>();
  private volatile boolean closed;
  // the scanning thread's: the threads running when the agent loaded (no run() of theirs will
  // start), and the candidates of the last scan
  private final Set<Thread> before = new HashSet<>(live());
  private Set<Thread> seen = Set.of();

  /**
   * A pinner of {@code rules}' threads; {@code attached}: loaded into a running JVM, where the
   * virtual-thread scheduler's carriers are never bound (its size was read at its start); {@code
   * processMask}: the mask the process had when the agent loaded (empty: never restore one).
   */
  ThreadPinner(
      ThreadRules rules,
      TidBackend backend,
      Consumer<String> out,
      boolean attached,
      Carriers carriers,
      CpuSet processMask) {
    this.rules = rules;
    this.backend = backend;
    this.out = out;
    this.attached = attached;
    this.carriers = carriers;
    this.processMask = processMask;
  }

  /** On thread {@code self} as its run() starts: binds it if a rule names it. Never throws. */
  @SuppressWarnings("checkstyle:illegalcatch") // the application's thread goes on, whatever failed
  boolean started(Thread self) {
    Optional<ThreadRules.Rule> rule = rules.match(self);
    if (rule.isEmpty()) {
      uninherit();
      return false;
    }
    if (closed || refused(self, rule.get())) {
      return false; // a scan got there first, a carrier after start, or the JVM exits
    }
    try {
      Bound b = new Bound(rule.get(), bind(self, rule.get()), "");
      bound.put(self, b);
      if (closed && bound.remove(self, b)) {
        b.close(); // bound as the JVM's exit closed the others
      }
      return true;
    } catch (Throwable e) {
      notBound(self, rule.get(), e.toString());
      return false;
    }
  }

  /**
   * On a thread no rule names, as its run() starts: if it inherited the one CPU of a thread bound
   * here from the thread that started it, gives it the process's mask. Never throws: a failure
   * leaves the mask as it was.
   */
  @SuppressWarnings("checkstyle:illegalcatch") // the application's thread goes on, whatever failed
  private void uninherit() {
    if (processMask.isEmpty() || bound.isEmpty()) {
      return;
    }
    try {
      CpuSet mine = backend.getAffinity(0);
      if (mine.size() == 1 && !mine.equals(processMask) && boundOn(mine.first())) {
        backend.setAffinity(0, processMask);
      }
    } catch (Throwable e) {
      out.accept(Thread.currentThread().getName() + ": mask left as inherited: " + e);
    }
  }

  private boolean boundOn(int cpu) {
    for (Bound b : bound.values()) {
      if (b.lease() != null && b.lease().cpu() == cpu) {
        return true;
      }
    }
    return false;
  }

  /** On thread {@code self} as the run() that bound it ends: lets it go. */
  void ended(Thread self) {
    Bound b = bound.remove(self);
    if (b != null) {
      b.close();
    }
  }

  /**
   * Binds the running threads a rule names that are not bound to it; lets go renamed or dead ones.
   * A thread started since the agent loaded is bound here only when two scans in a row found it
   * unbound: its own run() binds it (a scan between its start and its run() must not).
   */
  void scan() throws Exception {
    List<Thread> unbound = new ArrayList<>();
    Set<Thread> candidates = new HashSet<>();
    for (Thread t : live()) {
      Optional<ThreadRules.Rule> rule = rules.match(t);
      Bound b = bound.get(t);
      if (b != null && rule.isPresent() && b.rule() == rule.get()) {
        continue;
      }
      if (b != null && bound.remove(t, b) && b.close()) {
        out.accept(t.getName() + ": let go, renamed out of " + b.rule().glob());
      }
      if (rule.isPresent() && (before.contains(t) || seen.contains(t))) {
        unbound.add(t);
      } else if (rule.isPresent()) {
        candidates.add(t);
      }
    }
    seen = candidates;
    before.removeIf(t -> !t.isAlive());
    bound.forEach(
        (t, b) -> {
          if (!t.isAlive() && bound.remove(t, b)) {
            b.close();
          }
        });
    if (!unbound.isEmpty()) {
      Map<Long, Integer> tids = ThreadIds.now();
      for (Thread t : unbound) {
        Integer tid = tids.get(t.getId());
        if (tid != null && t.isAlive()) {
          bindOther(t, tid);
        }
      }
    }
  }

  /**
   * Binds running thread {@code t} (kernel id {@code tid}) from this one, through its seat as a
   * thread binds itself: this thread stands in for it (its id and, while binding, its name, which
   * the lease reports). A rule with a memory policy binds only threads started after the agent: the
   * policy is set by the thread bound, on itself.
   */
  private void bindOther(Thread t, int tid) {
    String name = t.getName();
    Optional<ThreadRules.Rule> rule = rules.match(t);
    if (closed || rule.isEmpty() || refused(t, rule.get())) {
      return;
    }
    if (rule.get().text().contains("memory:")) {
      notBound(
          t,
          rule.get(),
          "it was running before its rule named it, and a memory policy is set by the thread"
              + " itself at its start");
      return;
    }
    Thread me = Thread.currentThread();
    String own = me.getName();
    me.setName(name);
    backend.actFor(tid);
    try {
      bound.put(t, new Bound(rule.get(), bind(t, rule.get()), ""));
    } catch (RuntimeException e) {
      notBound(t, rule.get(), e.getMessage());
    } finally {
      backend.done();
      me.setName(own);
    }
  }

  /**
   * Marks {@code t} taken for {@code rule}; {@return true when it is not to be bound now}: another
   * binding got there first, or it is a carrier and the agent was attached (said once).
   */
  private boolean refused(Thread t, ThreadRules.Rule rule) {
    if (attached && Carriers.isCarrier(t)) {
      if (bound.putIfAbsent(t, new Bound(rule, null, CARRIER)) == null) {
        out.accept(t.getName() + ": not bound: " + CARRIER);
      }
      return true;
    }
    return bound.putIfAbsent(t, new Bound(rule, null, "")) != null;
  }

  private void notBound(Thread t, ThreadRules.Rule rule, String why) {
    bound.put(t, new Bound(rule, null, why));
    out.accept(t.getName() + ": not bound: " + why);
  }

  /** {@return a row per thread a rule named: bound (its lease now) or not (why)} */
  List<Row> rows() {
    List<Row> rows = new ArrayList<>();
    bound.forEach(
        (t, b) -> {
          String rule = b.rule().glob() + "=" + b.rule().text();
          if (b.lease() != null) {
            CpuLease l = b.lease();
            rows.add(new Row(l.tid(), t.getName(), l.cpu(), rule, l.status().name(), l.reason()));
          } else if (!b.why().isEmpty()) {
            rows.add(new Row(-1, t.getName(), -1, rule, "NOT_BOUND", b.why()));
          }
        });
    rows.sort(Comparator.comparing(Row::name));
    return rows;
  }

  /**
   * Binds thread {@code t} (the calling thread, or the one it stands in for) by {@code rule}: a
   * carrier through {@link Carriers}; says how on the output, a carrier not pinned always.
   */
  private CpuLease bind(Thread t, ThreadRules.Rule rule) {
    boolean carrier = rules.carriers().orElse(null) == rule;
    CpuLease lease =
        carrier ? carriers.bind(t, rule.group()) : rule.group().join(t.getName()).bindOnce();
    carriers.report(lease, line(lease, rule), carrier, out);
    return lease;
  }

  /**
   * Binds no thread any more and closes every lease: masks restored, CPUs released (at JVM exit).
   * {@return what it closed, as a line}
   */
  String close() {
    closed = true;
    int leases = 0;
    for (Map.Entry<Thread, Bound> e : bound.entrySet()) {
      if (bound.remove(e.getKey(), e.getValue()) && e.getValue().close()) {
        leases++;
      }
    }
    return "exit: " + leases + " leases closed, their threads' masks restored, their CPUs released";
  }

  /** {@return the bound threads' leases now} */
  List<CpuLease> leases() {
    return bound.values().stream().flatMap(b -> Optional.ofNullable(b.lease()).stream()).toList();
  }

  private static String line(CpuLease lease, ThreadRules.Rule rule) {
    return lease.threadName()
        + " (tid "
        + lease.tid()
        + "): "
        + lease.status()
        + " cpu "
        + lease.cpu()
        + " by "
        + rule.glob()
        + "="
        + rule.text()
        + ": "
        + lease.reason();
  }

  /** {@return this JVM's live platform threads} */
  static List<Thread> live() {
    ThreadGroup root = Thread.currentThread().getThreadGroup();
    while (root.getParent() != null) {
      root = root.getParent();
    }
    Thread[] threads = new Thread[root.activeCount() + 16];
    int n = root.enumerate(threads, true);
    while (n == threads.length) {
      threads = new Thread[threads.length * 2];
      n = root.enumerate(threads, true);
    }
    return Arrays.asList(threads).subList(0, n);
  }

  /**
   * A thread a rule named, as {@link #rows()} reports it.
   *
   * @param tid its kernel id, -1 when not bound
   * @param name its Java name now
   * @param cpu the CPU of its lease, -1 if none
   * @param rule the rule, {@code glob=group rule}
   * @param status its lease's status, or {@code NOT_BOUND}
   * @param reason why, one line
   */
  record Row(int tid, String name, int cpu, String rule, String status, String reason) {}

  /**
   * A thread's binding and the rule it was bound by; no lease while it is being bound, or when its
   * binding failed ({@code why}; not tried again until it is renamed).
   */
  private record Bound(ThreadRules.Rule rule, CpuLease lease, String why) {
    /** Closes the lease, if any; {@return whether there was one} */
    boolean close() {
      if (lease == null) {
        return false;
      }
      lease.close();
      return true;
    }
  }
}
