package io.github.affinitykit.disruptor;

import io.github.affinitykit.core.Assignment;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.host.CpuTopology;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.placement.WaitAdvice;
import io.github.affinitykit.core.placement.WaitRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Chooses the consumers' wait strategy from where the threads run, deterministically (host model +
 * layout + audit result in, {@link WaitChoice} out), so that the rule is testable on sysfs trees of
 * machines one does not have.
 *
 * <p>The rule, first match wins:
 *
 * <ol>
 *   <li>{@link WaitKind#BUSY_SPIN} when every consumer owns an exclusive core (core's {@link
 *       WaitRule}, shared with the Netty loops' wait policy: {@link CpuOwnership#ISOLATED_CORE}:
 *       its whole physical core isolated; or {@link CpuOwnership#AUDITED_EXCLUSIVE}: alone on its
 *       core and audited EXCLUSIVE after the rest of the JVM was confined elsewhere) <em>and</em>
 *       the producer keeps a core of its own (pinned alone on a core, or unpinned with at least one
 *       reachable core where no consumer is pinned). Only then does spinning cost nothing but the
 *       core it spins on.
 *   <li>{@link WaitKind#YIELDING} when every consumer has a core to itself within this Disruptor
 *       but at least one is not proven exclusive (not isolated, an isolated hyper-thread whose
 *       core-mate runs general work, no audit), and the producer keeps a core of its own. The
 *       consumer still answers within a spin, but a kernel thread, another process or the JVM's GC
 *       that lands on its CPU gets it at the next {@code yield} instead of at the end of a time
 *       slice. It still burns its CPU while idle: override with {@link WaitKind#SLEEPING} when idle
 *       CPU matters more than wake-up latency.
 *   <li>{@link WaitKind#SLEEPING} otherwise: a consumer shares a core with the producer or with
 *       another consumer, is unpinned, or the producer has no core free of consumers. Any spinning
 *       there takes the CPU from the very thread it waits for. Sleeping spins 100 times, yields 100
 *       times, then parks (about 60 µs here); it costs the producer nothing per publish and backs
 *       off the same way while a pipeline stage waits for its upstream stage. {@link
 *       WaitKind#BLOCKING} is not chosen: its producer takes a monitor and calls {@code notifyAll}
 *       on every publish, and a stage waiting for an upstream stage busy-spins on the shared CPU
 *       (Disruptor 4.0's {@code BlockingWaitStrategy}), which starves a pipeline squeezed onto few
 *       CPUs.
 * </ol>
 *
 * <p>Thread safety: stateless; safe for concurrent use.
 */
public final class WaitAdvisor {
  private WaitAdvisor() {}

  /**
   * Chooses the wait strategy for {@code layout} on {@code host}; {@code auditedExclusive} are the
   * CPUs an audit found EXCLUSIVE (empty when there was no audit).
   *
   * @param host the host's CPU model: topology, isolated and reachable CPUs; not null
   * @param layout the planned CPUs of the producer and the consumers; not null
   * @param auditedExclusive the CPUs an audit found EXCLUSIVE; empty without an audit; not null
   * @return the placement's choice (not overridden), with the reason for each thread
   */
  public static WaitChoice advise(
      HostCpus host, PipelineAssignments layout, CpuSet auditedExclusive) {
    return advise(host, layout, auditedExclusive, auditedExclusive);
  }

  /**
   * As {@link #advise(HostCpus, PipelineAssignments, CpuSet)}, knowing which CPUs were audited at
   * all, so that a reason can say "the audit found it SHARED" rather than "not audited".
   *
   * @param host the host's CPU model: topology, isolated and reachable CPUs; not null
   * @param layout the planned CPUs of the producer and the consumers; not null
   * @param auditedExclusive the CPUs an audit found EXCLUSIVE; empty without an audit; not null
   * @param audited every CPU the audit covered; empty without an audit; not null
   * @return the placement's choice (not overridden), with the reason for each thread
   * @throws IllegalArgumentException if {@code auditedExclusive} is not within {@code audited}
   */
  public static WaitChoice advise(
      HostCpus host, PipelineAssignments layout, CpuSet auditedExclusive, CpuSet audited) {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(auditedExclusive, "auditedExclusive");
    if (!audited.containsAll(auditedExclusive)) {
      throw new IllegalArgumentException(
          "auditedExclusive: " + auditedExclusive + " (expected: within audited " + audited + ")");
    }
    CpuTopology t = host.topology();
    List<ThreadAssignment> consumers = new ArrayList<>();
    for (int i = 0; i < layout.consumers().size(); i++) {
      consumers.add(consumer(host, layout, i, auditedExclusive, audited));
    }
    ThreadAssignment producer = producer(host, t, layout);
    boolean producerOk =
        producer.ownership() == CpuOwnership.OWN_CORE
            || producer.ownership() == CpuOwnership.FREE_TO_MOVE;
    ThreadAssignment notExclusive = firstWhere(consumers, c -> !c.ownership().exclusive());
    ThreadAssignment notOwn = firstWhere(consumers, c -> !c.ownership().ownCore());
    if (producerOk && notExclusive == null) {
      return choice(
          WaitKind.BUSY_SPIN,
          "every consumer owns an exclusive core and the producer keeps a core of its own",
          producer,
          consumers);
    }
    if (producerOk && notOwn == null) {
      return choice(
          WaitKind.YIELDING,
          "every consumer has a core of its own, but "
              + notExclusive.role()
              + "'s is not proven exclusive ("
              + notExclusive.reason()
              + "): spin, then yield to whatever else runs there",
          producer,
          consumers);
    }
    ThreadAssignment culprit = notOwn != null ? notOwn : producer;
    return choice(
        WaitKind.SLEEPING,
        culprit.role()
            + (culprit.cpu() < 0 ? " is unpinned" : " on cpu " + culprit.cpu())
            + " ("
            + culprit.reason()
            + "): spinning would take a CPU the producer or another consumer needs, so back off"
            + " to parking",
        producer,
        consumers);
  }

  private static WaitChoice choice(
      WaitKind kind, String reason, ThreadAssignment producer, List<ThreadAssignment> consumers) {
    return new WaitChoice(kind, kind, false, reason, producer, consumers);
  }

  private static ThreadAssignment firstWhere(
      List<ThreadAssignment> all, java.util.function.Predicate<ThreadAssignment> p) {
    return all.stream().filter(p).findFirst().orElse(null);
  }

  private static ThreadAssignment consumer(
      HostCpus host, PipelineAssignments layout, int i, CpuSet auditedExclusive, CpuSet audited) {
    String role = "consumer-" + i;
    int cpu = layout.consumerCpu(i);
    if (cpu < 0) {
      return new ThreadAssignment(
          role, -1, CpuOwnership.UNPINNED, layout.consumers().get(i).reason());
    }
    CpuSet core = host.topology().cpu(cpu).core();
    Assignment producer = layout.producer();
    if (producer.cpu() >= 0 && core.contains(producer.cpu())) {
      return new ThreadAssignment(
          role, cpu, CpuOwnership.SHARES_WITH_PRODUCER, "core " + core + " also runs the producer");
    }
    for (int j = 0; j < layout.consumers().size(); j++) {
      if (j != i && layout.consumerCpu(j) >= 0 && core.contains(layout.consumerCpu(j))) {
        return new ThreadAssignment(
            role,
            cpu,
            CpuOwnership.SHARES_WITH_CONSUMER,
            "core " + core + " also runs consumer-" + j);
      }
    }
    return alone(host, role, cpu, auditedExclusive, audited);
  }

  private static ThreadAssignment alone(
      HostCpus host, String role, int cpu, CpuSet auditedExclusive, CpuSet audited) {
    WaitAdvice a = WaitRule.judge(host, cpu, auditedExclusive, audited);
    CpuOwnership o =
        switch (a.basis()) {
          case ISOLATED_CORE -> CpuOwnership.ISOLATED_CORE;
          case AUDITED_EXCLUSIVE -> CpuOwnership.AUDITED_EXCLUSIVE;
          case ISOLATED_SHARED_CORE, AUDITED_SHARED, NOT_AUDITED -> CpuOwnership.OWN_CORE;
        };
    return new ThreadAssignment(role, cpu, o, a.reason());
  }

  private static ThreadAssignment producer(
      HostCpus host, CpuTopology t, PipelineAssignments layout) {
    CpuSet consumerCores = CpuSet.empty();
    for (int c : layout.consumerCpus().toArray()) {
      consumerCores = consumerCores.union(t.cpu(c).core());
    }
    Assignment p = layout.producer();
    if (p.cpu() >= 0) {
      CpuSet core = t.cpu(p.cpu()).core();
      return core.intersects(consumerCores)
          ? new ThreadAssignment(
              "producer",
              p.cpu(),
              CpuOwnership.SHARES_WITH_CONSUMER,
              "core " + core + " also runs a consumer")
          : new ThreadAssignment(
              "producer", p.cpu(), CpuOwnership.OWN_CORE, "alone on core " + core);
    }
    CpuSet free = host.reachable().minus(consumerCores);
    return free.isEmpty()
        ? new ThreadAssignment(
            "producer",
            -1,
            CpuOwnership.SHARES_WITH_CONSUMER,
            "unpinned, and every CPU it may use " + host.reachable() + " runs a consumer")
        : new ThreadAssignment(
            "producer", -1, CpuOwnership.FREE_TO_MOVE, "unpinned; no consumer runs on " + free);
  }
}
