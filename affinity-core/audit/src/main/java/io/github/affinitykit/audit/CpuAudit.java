package io.github.affinitykit.audit;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.ExclusivityAudit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.internal.SysFs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

/**
 * Proves or disproves that CPUs are exclusive: for each CPU, who else may run there (tasks whose
 * mask includes it), who did run there during a window ({@code /proc/*}{@code /task/*}{@code /stat}
 * field 39 and {@code schedstat}), which IRQs land there, and whether its SMT sibling was busy. An
 * IRQ whose affinity no longer includes the CPU but whose move the kernel has not done yet (it
 * moves at the IRQ's next interrupt) is a note, not an intruder, as long as {@code
 * /proc/interrupts} shows it did not fire there during the window. Binding a thread to a CPU is a
 * permission, not a reservation: this is how to see the difference.
 *
 * <p>The owners of a CPU (the threads that are supposed to be there) are, unless given, the threads
 * of this JVM whose mask is exactly that CPU. It is affinity-core's {@link ExclusivityAudit}: what
 * {@code AffinityKit.audit}, the watchdog and the wait rule read.
 *
 * <p>Thread safety: {@link #of} blocks the calling thread for the window and may be called from any
 * thread; results are immutable.
 */
public final class CpuAudit implements ExclusivityAudit {
  private static final int NAMED_INTRUDERS = 5;

  private final Duration window;
  private final List<CpuVerdict> verdicts;

  private CpuAudit(Duration window, List<CpuVerdict> verdicts) {
    this.window = window;
    this.verdicts = List.copyOf(verdicts);
  }

  /**
   * An audit made of verdicts reached elsewhere: a recorded audit read back, another process's, a
   * test's.
   *
   * @param window the window the verdicts were reached over; positive
   * @param verdicts one per CPU, in any order; no CPU twice
   * @return the audit, its verdicts ascending by CPU
   * @throws IllegalArgumentException if the window is not positive or a CPU has two verdicts
   */
  public static CpuAudit from(Duration window, List<CpuVerdict> verdicts) {
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("window: " + window + " (expected: > 0)");
    }
    List<CpuVerdict> sorted =
        verdicts.stream().sorted(java.util.Comparator.comparingInt(CpuVerdict::cpu)).toList();
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).cpu() == sorted.get(i - 1).cpu()) {
        throw new IllegalArgumentException(
            "verdicts: cpu " + sorted.get(i).cpu() + " twice (expected: one verdict per CPU)");
      }
    }
    return new CpuAudit(window, sorted);
  }

  /**
   * Returns core's answer as a {@code CpuAudit}: itself when this artifact made it (a kit's audit,
   * a watchdog's {@code lastAudit()}), else its verdicts rebuilt from its sets, each CPU's detail
   * as its note and no intruder named.
   *
   * @param audit an audit as core sees it; not null
   * @return the same audit with a verdict per CPU
   */
  public static CpuAudit of(ExclusivityAudit audit) {
    if (audit instanceof CpuAudit a) {
      return a;
    }
    List<CpuVerdict> out = new ArrayList<>();
    audit
        .audited()
        .forEach(
            cpu -> {
              CpuVerdict.Verdict v =
                  audit.exclusive().contains(cpu)
                      ? CpuVerdict.Verdict.EXCLUSIVE
                      : audit.intruded().contains(cpu)
                          ? CpuVerdict.Verdict.INTRUDED
                          : CpuVerdict.Verdict.UNKNOWN;
              String detail = audit.detail(cpu);
              out.add(
                  new CpuVerdict(
                      cpu, v, List.of(), detail.isEmpty() ? List.of() : List.of(detail)));
            });
    return new CpuAudit(audit.window(), out);
  }

  /**
   * Audits {@code cpus} of this host over {@code window}, owners being this JVM's pinned threads.
   *
   * @param cpus the CPUs to audit; not null
   * @param window how long to watch, positive; the call blocks for about that long
   * @return one verdict per CPU of {@code cpus}
   */
  public static CpuAudit of(CpuSet cpus, Duration window) {
    return run(Path.of("/"), HostCpus.probe(), cpus, window, Set.of());
  }

  /**
   * Audits {@code cpus} of {@code kit}'s host over {@code window}, the threads pinned through the
   * kit being their owners: everything else seen there is an intruder.
   *
   * @param kit the kit whose host and pinned threads are audited; not null
   * @param cpus the CPUs to audit; not null
   * @param window how long to watch, positive; the call blocks for about that long
   * @return one verdict per CPU of {@code cpus}
   */
  public static CpuAudit of(AffinityKit kit, CpuSet cpus, Duration window) {
    Set<Integer> tids = kit.pinnedThreadIds();
    Set<Integer> owners = tids.isEmpty() ? Set.of(-1) : tids; // empty would mean "guess the owners"
    return run(Path.of("/"), kit.host(), cpus, window, owners);
  }

  /**
   * Audits {@code cpus} over {@code window}; {@code ownerTids} are the threads meant to be there.
   *
   * @param cpus the CPUs to audit; not null
   * @param window how long to watch, positive; the call blocks for about that long
   * @param ownerTids kernel thread ids allowed on every audited CPU; empty means this JVM's threads
   *     pinned to each CPU alone, as {@link #of(CpuSet, Duration)}
   * @return one verdict per CPU of {@code cpus}
   */
  public static CpuAudit of(CpuSet cpus, Duration window, Set<Integer> ownerTids) {
    Objects.requireNonNull(ownerTids, "ownerTids");
    return run(Path.of("/"), HostCpus.probe(), cpus, window, ownerTids);
  }

  /**
   * Audits {@code cpus} of the host whose {@code /proc} and {@code /sys} are under {@code root}
   * over {@code window}, {@code owners} being the threads meant to be there.
   *
   * @param root the directory holding the host's {@code proc/} and {@code sys/} trees
   * @param host that host's snapshot: its topology and IRQs
   * @param cpus the CPUs to audit; not null
   * @param window how long to watch, positive; the call blocks for about that long
   * @param owners kernel thread ids allowed on every audited CPU; empty means this JVM's threads
   *     pinned to each CPU alone
   * @return one verdict per CPU of {@code cpus}
   */
  public static CpuAudit run(
      Path root, HostCpus host, CpuSet cpus, Duration window, Set<Integer> owners) {
    Objects.requireNonNull(cpus, "cpus");
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("window: " + window + " (expected: > 0)");
    }
    SysFs fs = new SysFs(root);
    int samples = (int) Math.max(2, Math.min(20, window.toMillis() / 25));
    long stepNs = window.toNanos() / (samples - 1);
    List<ProcScan> scans = new ArrayList<>();
    Interrupts first = Interrupts.read(fs);
    long start = System.nanoTime();
    for (int i = 0; i < samples; i++) {
      long wait = start + i * stepNs - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      }
      scans.add(ProcScan.read(fs));
    }
    Interrupts last = Interrupts.read(fs);
    return evaluate(
        host, cpus, window, scans, owners, (int) ProcessHandle.current().pid(), first, last);
  }

  static CpuAudit evaluate(
      HostCpus host,
      CpuSet cpus,
      Duration window,
      List<ProcScan> scans,
      Set<Integer> owners,
      int selfPid) {
    return evaluate(
        host, cpus, window, scans, owners, selfPid, Interrupts.none(), Interrupts.none());
  }

  static CpuAudit evaluate(
      HostCpus host,
      CpuSet cpus,
      Duration window,
      List<ProcScan> scans,
      Set<Integer> owners,
      int selfPid,
      Interrupts first,
      Interrupts last) {
    IntFunction<Set<Integer>> ownersOf =
        owners.isEmpty() ? cpu -> pinnedHere(scans, selfPid, cpu) : cpu -> owners;
    AuditRules rules =
        new AuditRules(host, scans, ownersOf, (irq, cpu) -> last.firedSince(first, irq, cpu));
    List<CpuVerdict> out = new ArrayList<>();
    cpus.forEach(cpu -> out.add(rules.verdict(cpu)));
    return new CpuAudit(window, out);
  }

  private static Set<Integer> pinnedHere(List<ProcScan> scans, int selfPid, int cpu) {
    Set<Integer> tids = new HashSet<>();
    CpuSet only = CpuSet.of(cpu);
    for (TaskSample t : scans.get(scans.size() - 1).tasks().values()) {
      if (t.pid() == selfPid && t.allowed().equals(only)) {
        tids.add(t.tid());
      }
    }
    return tids;
  }

  /**
   * Returns the window observed.
   *
   * @return the window asked for, positive; the sampling took about as long
   */
  @Override
  public Duration window() {
    return window;
  }

  @Override
  public CpuSet audited() {
    return cpus(v -> true);
  }

  @Override
  public CpuSet exclusive() {
    return cpus(CpuVerdict::exclusive);
  }

  @Override
  public CpuSet intruded() {
    return cpus(v -> v.verdict() == CpuVerdict.Verdict.INTRUDED);
  }

  private CpuSet cpus(java.util.function.Predicate<CpuVerdict> which) {
    return CpuSet.of(verdicts.stream().filter(which).mapToInt(CpuVerdict::cpu).toArray());
  }

  /**
   * Returns what was found on {@code cpu}: an INTRUDED CPU's intruders, the first five named
   * ({@code "bash (pid 300): ran_there, 45: irq and 2 more"}); another's notes, joined by {@code ";
   * "}.
   *
   * @param cpu one of the audited CPUs; another throws {@link IllegalArgumentException}
   * @return the detail; empty when there is nothing to add
   */
  @Override
  public String detail(int cpu) {
    CpuVerdict v = verdict(cpu);
    if (v.verdict() != CpuVerdict.Verdict.INTRUDED) {
      return String.join("; ", v.notes());
    }
    List<CpuVerdict.Intruder> all = v.intruders();
    String named =
        all.stream()
            .limit(NAMED_INTRUDERS)
            .map(
                i ->
                    i.name()
                        + (i.pid() >= 0 ? " (pid " + i.pid() + ")" : "")
                        + ": "
                        + i.kind().name().toLowerCase(java.util.Locale.ROOT))
            .collect(Collectors.joining(", "));
    int more = all.size() - NAMED_INTRUDERS;
    return named + (more > 0 ? " and " + more + " more" : "");
  }

  /**
   * Returns one verdict per audited CPU, ascending.
   *
   * @return the verdicts, ascending by CPU; unmodifiable, empty if no CPU was audited
   */
  public List<CpuVerdict> verdicts() {
    return verdicts;
  }

  /**
   * Returns the verdict for {@code cpu}.
   *
   * @param cpu one of the audited CPUs; another throws {@link IllegalArgumentException}
   * @return that CPU's verdict, never null
   */
  public CpuVerdict verdict(int cpu) {
    return verdicts.stream()
        .filter(v -> v.cpu() == cpu)
        .findFirst()
        .orElseThrow(
            () -> new IllegalArgumentException("cpu: " + cpu + " (expected: an audited CPU)"));
  }

  /**
   * Returns one line per CPU: verdict and a count of each kind of intruder.
   *
   * @return newline-terminated lines such as {@code "cpu 3: INTRUDED, 2 ran_there"}, notes after
   *     {@code ;}; empty if no CPU was audited
   */
  @Override
  public String summary() {
    StringBuilder sb = new StringBuilder();
    for (CpuVerdict v : verdicts) {
      sb.append("cpu ").append(v.cpu()).append(": ").append(v.verdict());
      for (CpuVerdict.Kind k : CpuVerdict.Kind.values()) {
        long n = v.intruders().stream().filter(i -> i.kind() == k).count();
        if (n > 0) {
          sb.append(", ").append(n).append(' ').append(k.name().toLowerCase(java.util.Locale.ROOT));
        }
      }
      v.notes().forEach(n -> sb.append("; ").append(n));
      sb.append('\n');
    }
    return sb.toString();
  }
}
