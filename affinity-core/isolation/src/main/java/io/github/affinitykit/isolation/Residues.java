package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.hostreport.KernelCmdline;
import java.util.ArrayList;
import java.util.List;

/**
 * What a runtime isolation cannot remove, and the kernel command line that removes it at the next
 * boot: per-CPU kernel threads, kernel threads that refuse a new affinity, IRQs the kernel keeps
 * (managed ones: {@code isolcpus=managed_irq}), the tick ({@code nohz_full}), RCU callbacks ({@code
 * rcu_nocbs}), an SMT sibling left to general work.
 *
 * <p>Thread safety: stateless.
 */
final class Residues {
  private Residues() {}

  /** What stays, as far as the plan can tell (IRQ refusals are added once applied). */
  static List<Residue> planned(Scene s) {
    List<Residue> out = new ArrayList<>();
    CpuSet cpus = s.cpus();
    List<Task> perCpu = new ArrayList<>();
    List<Task> unmovable = new ArrayList<>();
    for (Task t : s.tasks()) {
      if (t.unmovable() && TaskPlan.perCpu(t, cpus)) {
        perCpu.add(t);
      } else if (t.unmovable() && t.mask().intersects(cpus) && !s.owners().contains(t.tid())) {
        unmovable.add(t);
      }
    }
    if (!perCpu.isEmpty()) {
      out.add(
          new Residue(
              Residue.Kind.PER_CPU_KERNEL_THREADS,
              cpus,
              perCpu.size()
                  + " kernel thread(s) bound to single isolated CPUs, e.g. "
                  + TaskPlan.names(perCpu)
                  + ": they run there when the kernel needs them (isolcpus=domain"
                  + " and nohz_full keep most of them quiet)"));
    }
    if (!unmovable.isEmpty()) {
      out.add(
          new Residue(
              Residue.Kind.UNMOVABLE_TASKS,
              cpus,
              unmovable.size()
                  + " kernel thread(s) refuse a new affinity but may run there, e.g. "
                  + TaskPlan.names(unmovable)
                  + " (unbound kworkers follow the narrowed workqueue cpumask)"));
    }
    boot(s.host(), cpus, out);
    return out;
  }

  private static void boot(HostCpus host, CpuSet cpus, List<Residue> out) {
    CpuSet noTick = cpus.minus(host.nohzFull());
    if (!noTick.isEmpty()) {
      out.add(
          new Residue(
              Residue.Kind.TICK,
              noTick,
              "the scheduler tick still interrupts CPUs "
                  + noTick
                  + " (nohz_full="
                  + noTick
                  + " at boot stops it while one task runs there)"));
    }
    CpuSet rcu = cpus.minus(KernelCmdline.of(host).rcuNocbs());
    if (!rcu.isEmpty()) {
      out.add(
          new Residue(
              Residue.Kind.RCU_CALLBACKS,
              rcu,
              "RCU callbacks still run on CPUs " + rcu + " (rcu_nocbs=" + rcu + " at boot)"));
    }
    cpus.forEach(
        cpu -> {
          if (host.topology().known().contains(cpu)) {
            CpuSet mates = host.topology().cpu(cpu).core().minus(cpus);
            if (!mates.isEmpty()) {
              out.add(
                  new Residue(
                      Residue.Kind.SMT_SIBLING,
                      CpuSet.of(cpu),
                      "CPU "
                          + cpu
                          + " shares its core with "
                          + mates
                          + ", left to general work: isolate "
                          + host.topology().cpu(cpu).core()
                          + " to own the core"));
            }
          }
        });
  }

  /** IRQs refused or not yet moved, once applied. */
  static List<Residue> applied(Scene s, List<Change> changes) {
    List<Residue> out = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    List<String> inFlight = new ArrayList<>();
    for (Change c : changes) {
      if (c.kind() == Change.Kind.IRQ && c.outcome() == Change.Outcome.FAILED) {
        refused.add(Integer.toString(c.id()));
      } else if (c.kind() == Change.Kind.IRQ && c.outcome() == Change.Outcome.DONE) {
        String eff = "/proc/irq/" + c.id() + "/effective_affinity_list";
        if (s.files().fs().cpuListOrEmpty(eff).map(e -> e.intersects(s.cpus())).orElse(false)) {
          inFlight.add(Integer.toString(c.id()));
        }
      }
    }
    if (!refused.isEmpty()) {
      out.add(
          new Residue(
              Residue.Kind.UNMOVABLE_IRQS,
              s.cpus(),
              "IRQ(s) "
                  + String.join(", ", refused)
                  + ": the kernel refused a new affinity (managed or per-CPU interrupts;"
                  + " isolcpus=managed_irq keeps managed ones off at boot)"));
    }
    if (!inFlight.isEmpty()) {
      out.add(
          new Residue(
              Residue.Kind.IRQS_IN_FLIGHT,
              s.cpus(),
              "IRQ(s) "
                  + String.join(", ", inFlight)
                  + ": moved, still delivered to the CPUs until their next interrupt"));
    }
    return out;
  }

  /**
   * The kernel parameters that isolate {@code cpus} (with any already isolated) from boot on:
   * {@code isolcpus=managed_irq,domain,X nohz_full=X rcu_nocbs=X irqaffinity=rest}.
   */
  static String bootCommandLine(HostCpus host, CpuSet cpus) {
    KernelCmdline cmdline = KernelCmdline.of(host);
    CpuSet all = cpus.union(cmdline.isolcpus()).union(cmdline.nohzFull());
    CpuSet rest = host.topology().online().minus(all);
    return "isolcpus=managed_irq,domain,"
        + all
        + " nohz_full="
        + all
        + " rcu_nocbs="
        + all
        + (rest.isEmpty() ? "" : " irqaffinity=" + rest);
  }
}
