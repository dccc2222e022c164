package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The one rule for waiting threads, and its answer: whether a thread may spin while it has no work,
 * or must back off or block, with the {@link Reason} and the facts. Netty, Disruptor and Agrona
 * adapters only translate this answer.
 *
 * <p>The rule ({@link #decide}), first match wins: back off with no CPU ({@link
 * Reason#NOT_PINNED}), a lease found MOVED or LOST ({@link Reason#NOT_INTACT}), another thread of
 * ours on the same core ({@link Reason#NEIGHBOUR_ON_CORE}), or a CPU not its own ({@link
 * Reason#NOT_PINNED}); else spin only on a CPU proven exclusive: its whole core isolated ({@link
 * Reason#ISOLATED_CORE}) or found EXCLUSIVE by an audit ({@link Reason#AUDITED_EXCLUSIVE}).
 * Anywhere else a spinning thread takes the CPU from whatever else runs there.
 *
 * <p>Thread safety: immutable; {@link #decide} is stateless and safe for concurrent use.
 *
 * @param thread the name of the thread the answer is for
 * @param cpu the thread's CPU; -1 when it has none
 * @param reason which fact decided
 * @param text the facts, with CPU numbers, for people
 */
public record WaitAdvice(String thread, int cpu, WaitAdvice.Reason reason, String text) {
  /**
   * Validates.
   *
   * @param thread the name of the thread the answer is for; not null
   * @param cpu the thread's CPU, 0-based; -1 when it has none
   * @param reason which fact decided; not null
   * @param text the facts, with CPU numbers, for people; not null
   * @throws IllegalArgumentException if {@code cpu} is below -1
   */
  public WaitAdvice {
    Objects.requireNonNull(thread, "thread");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(text, "text");
    if (cpu < -1) {
      throw new IllegalArgumentException("cpu: " + cpu + " (expected: >= -1)");
    }
  }

  /**
   * Decides for {@code self} without an audit.
   *
   * @param host the host model; not null
   * @param self the thread's placement: its CPU, status and reason; not null
   * @param others the other threads of ours (entries equal to {@code self} are skipped); not null
   * @return the answer
   * @throws IllegalArgumentException if {@code self}'s CPU is not a known CPU of {@code host}
   */
  public static WaitAdvice decide(HostCpus host, Assignment self, Collection<Assignment> others) {
    return decide(host, self, others, CpuSet.empty(), CpuSet.empty());
  }

  /**
   * Decides for {@code self} with an audit's verdicts: see the class comment for the rule.
   *
   * @param host the host model; not null
   * @param self the thread's placement: its CPU, status and reason; not null
   * @param others the other threads of ours ({@code self} skipped); one on {@code self}'s core is a
   *     neighbour; not null
   * @param auditedExclusive the CPUs an audit found EXCLUSIVE (empty without an audit); not null
   * @param audited the CPUs audited at all (a superset of {@code auditedExclusive}); not null
   * @return the answer
   * @throws IllegalArgumentException if {@code self}'s CPU is unknown to {@code host}, or {@code
   *     auditedExclusive} is not within {@code audited}
   */
  public static WaitAdvice decide(
      HostCpus host,
      Assignment self,
      Collection<Assignment> others,
      CpuSet auditedExclusive,
      CpuSet audited) {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(others, "others");
    if (!audited.containsAll(auditedExclusive)) {
      throw new IllegalArgumentException(
          "auditedExclusive: " + auditedExclusive + " (expected: within audited " + audited + ")");
    }
    String name = self.threadName();
    int cpu = self.cpu();
    LeaseStatus s = self.status();
    if (cpu < 0) {
      return new WaitAdvice(
          name,
          -1,
          Reason.NOT_PINNED,
          "not pinned (" + s + ": " + self.reason() + "): spinning would take a CPU others need");
    }
    if (s == LeaseStatus.MOVED || s == LeaseStatus.LOST) {
      return new WaitAdvice(
          name,
          cpu,
          Reason.NOT_INTACT,
          "lease " + s + " (" + self.reason() + "): backs off until it is pinned again");
    }
    CpuSet core = host.topology().cpu(cpu).core();
    for (Assignment o : others) {
      if (!o.equals(self) && o.cpu() >= 0 && core.contains(o.cpu())) {
        return new WaitAdvice(
            name, cpu, Reason.NEIGHBOUR_ON_CORE, "core " + core + " also runs " + o.threadName());
      }
    }
    if (s != LeaseStatus.PINNED) {
      return new WaitAdvice(
          name,
          cpu,
          Reason.NOT_PINNED,
          "lease " + s + " (" + self.reason() + "): spinning would take a CPU others need");
    }
    return alone(host, name, cpu, core, auditedExclusive, audited);
  }

  /**
   * Decides for the thread that holds {@code self} from its state now: a lease no longer {@link
   * CpuLease#isIntact() intact} backs off; the kit's other open leases are its neighbours.
   *
   * @param host the host model; not null
   * @param self the thread's lease; not null
   * @param open the kit's open leases ({@code self} among them is skipped, by TID); not null
   * @return the answer
   */
  public static WaitAdvice decide(HostCpus host, CpuLease self, Collection<CpuLease> open) {
    List<Assignment> others =
        open.stream()
            .filter(o -> o.tid() != self.tid())
            .map(o -> o.view(o.group() + "/" + o.member()))
            .toList();
    return decide(host, self.view(self.threadName()), others);
  }

  /** The host's facts, for a thread pinned with no neighbour of ours on its core. */
  private static WaitAdvice alone(
      HostCpus host, String name, int cpu, CpuSet core, CpuSet auditedExclusive, CpuSet audited) {
    CpuSet online = core.intersect(host.topology().online());
    CpuSet isolated = host.isolatedCpus();
    if (host.exclusive().contains(cpu) && isolated.containsAll(online)) {
      return new WaitAdvice(
          name, cpu, Reason.ISOLATED_CORE, "isolated, with its whole core " + core);
    }
    if (auditedExclusive.contains(cpu)) {
      return new WaitAdvice(
          name, cpu, Reason.AUDITED_EXCLUSIVE, "audited EXCLUSIVE, alone on core " + core);
    }
    if (isolated.contains(cpu)) {
      String mate = "isolated, but its core-mate " + online.minus(isolated);
      return new WaitAdvice(
          name,
          cpu,
          Reason.SIBLING_NOT_ISOLATED,
          mate + " is not: general work runs on the same core");
    }
    boolean wasAudited = audited.contains(cpu);
    String why = wasAudited ? "the audit found it INTRUDED" : "not audited";
    return new WaitAdvice(
        name,
        cpu,
        wasAudited ? Reason.AUDITED_NOT_EXCLUSIVE : Reason.NOT_AUDITED,
        "alone on core "
            + core
            + " but not isolated, and "
            + why
            + ": other tasks and IRQs may run there");
  }

  /** {@return whether the thread may spin: its CPU is proven exclusive} */
  public boolean spin() {
    return reason.spin();
  }

  /** Returns {@code worker-0 on cpu 1: spin, ISOLATED_CORE (isolated, with its whole core 1)}. */
  @Override
  public String toString() {
    String where = cpu < 0 ? " with no CPU" : " on cpu " + cpu;
    return String.format(
        "%s%s: %s%s (%s)", thread, where, spin() ? "spin, " : "back off, ", reason, text);
  }

  /**
   * The fact that decided, in the order the rule asks.
   *
   * <p>Thread safety: immutable.
   */
  public enum Reason {
    /** The thread has no CPU of its own: no lease, or UNPINNED, SHARED, FAILED, RELEASED ... */
    NOT_PINNED,
    /** Its lease was found MOVED or its reservation LOST: it backs off until pinned again. */
    NOT_INTACT,
    /** Another pinned thread of ours runs on the same physical core (the CPU or a sibling). */
    NEIGHBOUR_ON_CORE,
    /** Isolated (isolcpus domain, nohz_full or an isolated partition), with its whole core. */
    ISOLATED_CORE,
    /** An exclusivity audit found the CPU EXCLUSIVE. */
    AUDITED_EXCLUSIVE,
    /** Isolated, but an SMT sibling is not: general work runs on the same core. */
    SIBLING_NOT_ISOLATED,
    /** Not isolated, and the audit saw other tasks or IRQs there. */
    AUDITED_NOT_EXCLUSIVE,
    /** Not isolated and not audited: nothing proves that the CPU is exclusive. */
    NOT_AUDITED;

    /** {@return true for {@link #ISOLATED_CORE} and {@link #AUDITED_EXCLUSIVE} only} */
    public boolean spin() {
      return this == ISOLATED_CORE || this == AUDITED_EXCLUSIVE;
    }

    /** {@return whether the thread has a core of its own: pinned, intact, no neighbour} */
    public boolean ownCore() {
      return this != NOT_PINNED && this != NOT_INTACT && this != NEIGHBOUR_ON_CORE;
    }
  }
}
