package io.github.affinitykit.audit;

import io.github.affinitykit.audit.CpuVerdict.Intruder;
import io.github.affinitykit.audit.CpuVerdict.Kind;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.internal.SysFs;
import io.github.affinitykit.hostreport.proc.IrqRoute;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiPredicate;
import java.util.function.IntFunction;

/**
 * Turns a series of {@link ProcScan}s into one {@link CpuVerdict} per CPU. A task "ran on" a CPU in
 * an interval when its run time grew and it was last seen on that CPU at the end of the interval: a
 * task that ran there and left before the next scan is missed, so more scans see more.
 *
 * <p>Thread safety: immutable.
 */
final class AuditRules {
  private static final int MAX_NAMES = 5;

  private final HostCpus host;
  private final List<IrqRoute> irqs;
  private final List<ProcScan> scans;
  private final IntFunction<Set<Integer>> owners;
  private final BiPredicate<Integer, Integer> fired;

  /**
   * Rules over {@code scans}; {@code fired} answers whether IRQ {@code irq} fired on CPU {@code
   * cpu} during the window (true when unknown).
   */
  AuditRules(
      HostCpus host,
      List<ProcScan> scans,
      IntFunction<Set<Integer>> owners,
      BiPredicate<Integer, Integer> fired) {
    this.host = host;
    this.irqs = IrqRoute.read(new SysFs(host.root())); // the IRQs as they are now, on that host
    this.scans = List.copyOf(scans);
    this.owners = owners;
    this.fired = fired;
  }

  CpuVerdict verdict(int cpu) {
    if (!host.topology().online().contains(cpu)) {
      return unknown(cpu, "CPU " + cpu + " is not online");
    }
    if (scans.size() < 2 || scans.get(scans.size() - 1).isEmpty()) {
      return unknown(cpu, "no tasks visible in /proc (not Linux, or /proc mounted with hidepid)");
    }
    Set<Integer> own = owners.apply(cpu);
    List<Intruder> intruders = new ArrayList<>();
    List<String> perCpu = new ArrayList<>();
    ranOn(cpu, own)
        .forEach(
            (tid, ns) -> {
              TaskSample t = last().tasks().get(tid);
              if (perCpuKernelThread(t, cpu)) {
                perCpu.add(t.name() + " " + ns / 1000 + " us");
              } else {
                intruders.add(
                    new Intruder(
                        Kind.RAN_THERE, t.pid(), tid, t.name(), "ran " + ns / 1000 + " us here"));
              }
            });
    List<String> notes = new ArrayList<>();
    allowed(cpu, own, intruders, notes);
    if (!perCpu.isEmpty()) {
      notes.add("per-CPU kernel work ran here (bound to this CPU, unmovable): " + perCpu);
    }
    for (IrqRoute irq : irqs) {
      if (!irq.effective().contains(cpu)) {
        continue;
      }
      if (!irq.affinity().contains(cpu) && !fired.test(irq.irq(), cpu)) {
        notes.add(
            "irq "
                + irq.irq()
                + " is moving off (its affinity is "
                + irq.affinity()
                + "; the kernel moves it at its next interrupt): none here during the window");
      } else {
        intruders.add(
            new Intruder(Kind.IRQ, -1, -1, "irq " + irq.irq(), "delivered to " + irq.effective()));
      }
    }
    siblings(cpu, intruders);
    return new CpuVerdict(
        cpu,
        intruders.isEmpty() ? CpuVerdict.Verdict.EXCLUSIVE : CpuVerdict.Verdict.INTRUDED,
        intruders,
        notes);
  }

  private ProcScan last() {
    return scans.get(scans.size() - 1);
  }

  /** Non-owner tasks seen running on {@code cpu}, with the run time they gained (ns). */
  private Map<Integer, Long> ranOn(int cpu, Set<Integer> own) {
    Map<Integer, Long> ran = new TreeMap<>();
    for (int i = 1; i < scans.size(); i++) {
      Map<Integer, TaskSample> before = scans.get(i - 1).tasks();
      for (TaskSample now : scans.get(i).tasks().values()) {
        if (now.lastCpu() != cpu || own.contains(now.tid())) {
          continue;
        }
        TaskSample then = before.get(now.tid());
        long gained = then == null ? runTime(now) : runTime(now) - runTime(then);
        if (gained > 0 && last().tasks().containsKey(now.tid())) {
          ran.merge(now.tid(), gained, Long::sum);
        }
      }
    }
    return ran;
  }

  private static long runTime(TaskSample t) {
    return t.runNs() >= 0 ? t.runNs() : t.cpuNs();
  }

  /** Movable tasks that may run on {@code cpu}, grouped by process; unmovable ones as notes. */
  private void allowed(int cpu, Set<Integer> own, List<Intruder> out, List<String> notes) {
    Map<Integer, List<TaskSample>> byPid = new TreeMap<>();
    List<String> unmovable = new ArrayList<>();
    for (TaskSample t : last().tasks().values()) {
      if (own.contains(t.tid()) || !t.allowed().contains(cpu)) {
        continue;
      }
      if (t.isUnmovable()) {
        unmovable.add(t.name());
      } else {
        byPid.computeIfAbsent(t.pid(), k -> new ArrayList<>()).add(t);
      }
    }
    byPid.forEach(
        (pid, tasks) -> {
          TaskSample main = last().tasks().getOrDefault(pid, tasks.get(0));
          out.add(
              new Intruder(
                  Kind.ALLOWED_THERE,
                  pid,
                  -1,
                  main.name(),
                  tasks.size() + " thread(s) may be scheduled here, e.g. " + names(tasks)));
        });
    if (!unmovable.isEmpty()) {
      notes.add(
          unmovable.size()
              + " unmovable kernel thread(s) may run here: "
              + String.join(", ", unmovable.subList(0, Math.min(MAX_NAMES, unmovable.size())))
              + (unmovable.size() > MAX_NAMES ? ", ..." : ""));
    }
  }

  private void siblings(int cpu, List<Intruder> out) {
    if (!host.topology().known().contains(cpu)) {
      return;
    }
    CpuSet mates = host.topology().cpu(cpu).core().minus(CpuSet.of(cpu));
    for (int s = mates.first(); s >= 0; s = mates.next(s + 1)) {
      int sibling = s;
      Map<Integer, Long> ran = ranOn(s, owners.apply(s));
      ran.keySet().removeIf(tid -> perCpuKernelThread(last().tasks().get(tid), sibling));
      if (!ran.isEmpty()) {
        List<TaskSample> tasks = new ArrayList<>();
        ran.keySet().forEach(tid -> tasks.add(last().tasks().get(tid)));
        out.add(
            new Intruder(
                Kind.BUSY_SIBLING,
                -1,
                -1,
                "cpu " + s,
                ran.size() + " task(s) ran on the SMT sibling, e.g. " + names(tasks)));
      }
    }
  }

  /**
   * A kernel thread bound to exactly {@code cpu} (ksoftirqd/N, kworker/N:M, migration/N): it exists
   * on every CPU, isolated or not, and nothing can move it, so it is reported, not blamed.
   */
  private static boolean perCpuKernelThread(TaskSample t, int cpu) {
    return t.isUnmovable() && t.allowed().equals(CpuSet.of(cpu));
  }

  private static String names(List<TaskSample> tasks) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < Math.min(MAX_NAMES, tasks.size()); i++) {
      names.add(tasks.get(i).name() + "(" + tasks.get(i).tid() + ")");
    }
    return String.join(", ", names) + (tasks.size() > MAX_NAMES ? ", ..." : "");
  }

  private static CpuVerdict unknown(int cpu, String why) {
    return new CpuVerdict(cpu, CpuVerdict.Verdict.UNKNOWN, List.of(), List.of(why));
  }
}
