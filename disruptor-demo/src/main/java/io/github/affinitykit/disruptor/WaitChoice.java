package io.github.affinitykit.disruptor;

import io.github.affinitykit.core.Assignment;
import io.github.affinitykit.core.WaitAdvice;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The wait strategy a Disruptor's consumers were given, why, and core's wait rule's answer for each
 * thread it was decided from: the answer to "why is this consumer spinning (or not)?".
 *
 * <p>{@link #advise} translates the rule ({@link WaitAdvice#decide}: each consumer's neighbours are
 * the producer and the other consumers) into a Disruptor strategy, first match wins:
 *
 * <ol>
 *   <li>{@link WaitKind#BUSY_SPIN} when the rule lets every consumer spin (its whole core isolated,
 *       or audited EXCLUSIVE after the rest of the JVM was confined elsewhere, and no other thread
 *       of this Disruptor on its core) <em>and</em> the producer keeps a core of its own (pinned
 *       with no consumer on its core, or unpinned with at least one reachable core where no
 *       consumer is pinned). Only then does spinning cost nothing but the core it spins on.
 *   <li>{@link WaitKind#YIELDING} when every consumer has a core of its own within this Disruptor
 *       but at least one is not proven exclusive, and the producer keeps a core of its own. The
 *       consumer still answers within a spin, but whatever else lands on its CPU gets it at the
 *       next {@code yield}. It still burns its CPU while idle: override with {@link
 *       WaitKind#SLEEPING} when idle CPU matters more than wake-up latency.
 *   <li>{@link WaitKind#SLEEPING} otherwise: a consumer shares a core with the producer or another
 *       consumer, is unpinned, or the producer has no core free of consumers. Spinning there takes
 *       the CPU from the very thread it waits for; sleeping spins, yields, then parks, costs the
 *       producer nothing per publish and backs off the same way while a stage waits for its
 *       upstream stage. {@link WaitKind#BLOCKING} is not chosen: its producer takes a monitor and
 *       calls {@code notifyAll} on every publish, and a stage waiting for an upstream stage
 *       busy-spins on the shared CPU (Disruptor 4.0), which starves a pipeline on few CPUs.
 * </ol>
 *
 * <p>Thread safety: immutable; {@link #advise} is stateless.
 *
 * @param strategy the strategy in use
 * @param placementChoice what the placement alone chose ({@link #advise}); equals {@code strategy}
 *     unless overridden
 * @param overridden whether the user named the strategy
 * @param reason why placement chose {@code placementChoice}: the rule, with the CPUs that decided
 * @param producer the rule's answer for the producer (named {@code producer}): whether it keeps a
 *     core of its own
 * @param consumers the rule's answer for each consumer ({@code consumer-<n>}), in creation order
 */
public record WaitChoice(
    WaitKind strategy,
    WaitKind placementChoice,
    boolean overridden,
    String reason,
    WaitAdvice producer,
    List<WaitAdvice> consumers) {
  /**
   * Validates and copies.
   *
   * @param strategy the strategy in use; not null
   * @param placementChoice what placement alone chose; {@code strategy} unless {@code overridden}
   * @param overridden whether the user named the strategy
   * @param reason why placement chose {@code placementChoice}; not null
   * @param producer the rule's answer for the producer; not null
   * @param consumers the rule's answer for each consumer, in creation order; copied, no nulls
   */
  public WaitChoice {
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(placementChoice, "placementChoice");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(producer, "producer");
    consumers = List.copyOf(consumers);
    if (!overridden && strategy != placementChoice) {
      throw new IllegalArgumentException(
          "strategy: " + strategy + " (expected: " + placementChoice + " unless overridden)");
    }
  }

  /**
   * Chooses the wait strategy for {@code layout} on {@code host} without an audit's INTRUDED
   * verdicts: {@code auditedExclusive} are the CPUs an audit found EXCLUSIVE (empty without one).
   *
   * @param host the host's CPU model: topology, isolated and reachable CPUs; not null
   * @param layout the planned CPUs of the producer and the consumers; not null
   * @param auditedExclusive the CPUs an audit found EXCLUSIVE; empty without an audit; not null
   * @return the placement's choice (not overridden), with the rule's answer for each thread
   */
  public static WaitChoice advise(
      HostCpus host, PipelineAssignments layout, CpuSet auditedExclusive) {
    return advise(host, layout, auditedExclusive, auditedExclusive);
  }

  /**
   * Chooses the wait strategy for {@code layout} on {@code host}, knowing which CPUs were audited
   * at all, so that a reason can say "the audit found it INTRUDED" rather than "not audited".
   *
   * @param host the host's CPU model: topology, isolated and reachable CPUs; not null
   * @param layout the planned CPUs of the producer and the consumers; not null
   * @param auditedExclusive the CPUs an audit found EXCLUSIVE; empty without an audit; not null
   * @param audited every CPU the audit covered; empty without an audit; not null
   * @return the placement's choice (not overridden), with the rule's answer for each thread
   * @throws IllegalArgumentException if {@code auditedExclusive} is not within {@code audited}
   */
  public static WaitChoice advise(
      HostCpus host, PipelineAssignments layout, CpuSet auditedExclusive, CpuSet audited) {
    Objects.requireNonNull(layout, "layout");
    Assignment p = named(layout.producer(), "producer");
    List<Assignment> consumerThreads = new ArrayList<>();
    for (int i = 0; i < layout.consumers().size(); i++) {
      consumerThreads.add(named(layout.consumers().get(i), "consumer-" + i));
    }
    List<Assignment> everyone = new ArrayList<>(consumerThreads);
    everyone.add(p);
    List<WaitAdvice> consumers = new ArrayList<>();
    for (Assignment c : consumerThreads) {
      consumers.add(WaitAdvice.decide(host, c, everyone, auditedExclusive, audited));
    }
    WaitAdvice producer = WaitAdvice.decide(host, p, consumerThreads, auditedExclusive, audited);
    Optional<String> crowded = crowded(host, layout, producer);
    Optional<WaitAdvice> notExclusive = consumers.stream().filter(c -> !c.spin()).findFirst();
    Optional<WaitAdvice> notOwn = consumers.stream().filter(c -> !c.reason().ownCore()).findFirst();
    if (crowded.isEmpty() && notExclusive.isEmpty()) {
      return choice(
          WaitKind.BUSY_SPIN,
          "every consumer owns an exclusive core and the producer keeps a core of its own",
          producer,
          consumers);
    }
    if (crowded.isEmpty() && notOwn.isEmpty()) {
      WaitAdvice c = notExclusive.orElseThrow();
      return choice(
          WaitKind.YIELDING,
          "every consumer has a core of its own, but "
              + c.thread()
              + "'s is not proven exclusive ("
              + c.text()
              + "): spin, then yield to whatever else runs there",
          producer,
          consumers);
    }
    String culprit =
        notOwn
            .map(c -> c.thread() + (c.cpu() < 0 ? " is unpinned" : " on cpu " + c.cpu()))
            .orElse("producer");
    String why = notOwn.map(WaitAdvice::text).orElseGet(crowded::orElseThrow);
    return choice(
        WaitKind.SLEEPING,
        culprit
            + " ("
            + why
            + "): spinning would take a CPU the producer or another consumer needs, so back off"
            + " to parking",
        producer,
        consumers);
  }

  /** Why the producer has no core of its own; empty when it has one. */
  private static Optional<String> crowded(
      HostCpus host, PipelineAssignments layout, WaitAdvice producer) {
    if (producer.cpu() >= 0) {
      return producer.reason().ownCore() ? Optional.empty() : Optional.of(producer.text());
    }
    CpuSet consumerCores = CpuSet.empty();
    for (int c : layout.consumerCpus().toArray()) {
      consumerCores = consumerCores.union(host.topology().cpu(c).core());
    }
    return host.reachable().minus(consumerCores).isEmpty()
        ? Optional.of("unpinned, and every CPU it may use " + host.reachable() + " runs a consumer")
        : Optional.empty();
  }

  private static Assignment named(Assignment a, String role) {
    return new Assignment(role, a.tid(), a.cpu(), a.status(), a.reason());
  }

  private static WaitChoice choice(
      WaitKind kind, String reason, WaitAdvice producer, List<WaitAdvice> consumers) {
    return new WaitChoice(kind, kind, false, reason, producer, consumers);
  }

  /**
   * Returns this choice with {@code strategy} named by the user instead.
   *
   * @param strategy the strategy the user named, even if it is the placement's own; not null
   * @return a new choice marked overridden; placement's choice, reason and threads are kept
   */
  public WaitChoice overriddenBy(WaitKind strategy) {
    return new WaitChoice(strategy, placementChoice, true, reason, producer, consumers);
  }

  /**
   * Returns one line: the strategy, and what placement chose and why.
   *
   * @return {@code <strategy>: <reason>}, or when overridden, what placement would have chosen
   */
  public String headline() {
    return overridden
        ? strategy
            + " (overridden by the user; placement would choose "
            + placementChoice
            + ": "
            + reason
            + ")"
        : strategy + ": " + reason;
  }

  /**
   * Returns a few lines for people: the strategy and reason, then one line per thread.
   *
   * @return the headline, the producer, then each consumer, every line ending in {@code \n}
   */
  public String describe() {
    StringBuilder sb = new StringBuilder(headline()).append('\n');
    sb.append("  ").append(producer).append('\n');
    consumers.forEach(c -> sb.append("  ").append(c).append('\n'));
    return sb.toString();
  }
}
