package io.github.affinitykit.disruptor;

import com.lmax.disruptor.EventFactory;
import com.lmax.disruptor.dsl.ProducerType;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuGroupBuilder;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.RunOutPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Configures a {@link PinnedDisruptor}: its threads are one {@link CpuGroup}, configured by its
 * {@link CpuGroupBuilder} (pool, placements, run-out, isolation: {@link #group}). Defaults: ring of
 * 1024, {@link ProducerType#SINGLE}, one consumer, {@link Pinning#CONSUMERS}, the group {@code
 * kit.group("disruptor")} placed {@link #DEFAULT_PLACEMENTS} with run-out {@link
 * RunOutPolicy#SHARE}, wait strategy chosen by {@link WaitChoice#advise}, no audit, threads named
 * {@code <group name>-consumer-<n>}, 10 s timeout for starting and stopping threads.
 *
 * <p>Thread safety: not thread-safe; build on one thread.
 *
 * @param <T> the event type
 */
public final class PinnedDisruptorBuilder<T> {
  /** The default placements: a physical core per thread while there are free cores, then any. */
  public static final List<Placement> DEFAULT_PLACEMENTS =
      List.of(Placement.DIFFERENT_CORE, Placement.ANY);

  private final EventFactory<T> eventFactory;
  private final AffinityKit kit;
  private int ringSize = 1024;
  private ProducerType producerType = ProducerType.SINGLE;
  private int consumers = 1;
  private Pinning pinning = Pinning.CONSUMERS;
  private CpuGroupBuilder group;
  private Optional<WaitKind> override = Optional.empty();
  private Optional<Duration> audit = Optional.empty();
  private Duration timeout = Duration.ofSeconds(10);

  PinnedDisruptorBuilder(AffinityKit kit, EventFactory<T> eventFactory) {
    this.kit = Objects.requireNonNull(kit, "kit");
    this.eventFactory = Objects.requireNonNull(eventFactory, "eventFactory");
    this.group = defaultGroup(kit, "disruptor");
  }

  /**
   * Returns the group a Disruptor's threads form by default, named {@code name}: placements {@link
   * #DEFAULT_PLACEMENTS}, run-out {@link RunOutPolicy#SHARE} (threads left without a CPU share one
   * rather than run anywhere); configure it further and pass it to {@link #group}.
   *
   * @param kit the kit whose pool the group draws from; not null
   * @param name the group's name, which also begins its threads' names
   * @return a new group builder; nothing is reserved until it is built
   */
  public static CpuGroupBuilder defaultGroup(AffinityKit kit, String name) {
    return kit.group(name).placements(DEFAULT_PLACEMENTS).runOut(RunOutPolicy.SHARE);
  }

  /**
   * Sets the ring size, a power of two.
   *
   * @param ringSize the number of slots: a power of two, 1 or more (default 1024)
   * @return this builder
   * @throws IllegalArgumentException if it is not (checked here, before any CPU is reserved)
   */
  public PinnedDisruptorBuilder<T> ringSize(int ringSize) {
    if (ringSize <= 0 || Integer.bitCount(ringSize) != 1) {
      throw new IllegalArgumentException(
          "ringSize: " + ringSize + " (expected: a power of two, 1 or more)");
    }
    this.ringSize = ringSize;
    return this;
  }

  /**
   * Sets the producer type (default {@link ProducerType#SINGLE}).
   *
   * @param type {@code SINGLE} for one publishing thread, {@code MULTI} for several; not null
   * @return this builder
   */
  public PinnedDisruptorBuilder<T> producerType(ProducerType type) {
    this.producerType = Objects.requireNonNull(type, "type");
    return this;
  }

  /**
   * Sets how many event processors (threads) the Disruptor will run: exactly as many as the
   * handlers wired before {@link PinnedDisruptor#start()}, in wiring order.
   *
   * @param consumers the number of event processors, 1 or more (default 1)
   * @return this builder
   */
  public PinnedDisruptorBuilder<T> consumers(int consumers) {
    if (consumers < 1) {
      throw new IllegalArgumentException("consumers: " + consumers + " (expected: >= 1)");
    }
    this.consumers = consumers;
    return this;
  }

  /**
   * Sets which threads are pinned (default {@link Pinning#CONSUMERS}).
   *
   * @param pinning which threads are pinned; not null
   * @return this builder
   */
  public PinnedDisruptorBuilder<T> pinning(Pinning pinning) {
    this.pinning = Objects.requireNonNull(pinning, "pinning");
    return this;
  }

  /**
   * The group the Disruptor's threads are members of, instead of {@code defaultGroup(kit,
   * "disruptor")} ({@link #defaultGroup}); its name names the threads. {@link Pinning#UNPINNED}
   * makes it pin nothing.
   *
   * @param group the threads' CPU group, built by {@link #build()}; not null
   * @return this builder
   */
  public PinnedDisruptorBuilder<T> group(CpuGroupBuilder group) {
    this.group = Objects.requireNonNull(group, "group");
    return this;
  }

  /**
   * Uses {@code strategy} whatever the placement; {@link WaitChoice} still says what it chose.
   *
   * @param strategy the wait strategy every consumer gets; not null
   * @return this builder
   */
  public PinnedDisruptorBuilder<T> waitStrategy(WaitKind strategy) {
    this.override = Optional.of(Objects.requireNonNull(strategy, "strategy"));
    return this;
  }

  /**
   * Before the consumers start, confines every other thread of this JVM (the caller included) to
   * the CPUs outside the consumers' cores and audits the consumers' CPUs for {@code window}: a CPU
   * found EXCLUSIVE counts as an exclusive core. {@link PinnedDisruptor#close()} gives the confined
   * threads their masks back. {@code build()} blocks for the window.
   *
   * @param window how long the audit watches the consumers' CPUs, > 0
   * @return this builder
   */
  public PinnedDisruptorBuilder<T> auditExclusivity(Duration window) {
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("window: " + window + " (expected: > 0)");
    }
    this.audit = Optional.of(window);
    return this;
  }

  /**
   * Sets how long start and close wait for consumer threads (default 10 s).
   *
   * @param timeout the most each of start and close waits, for all consumers together; not null
   * @return this builder
   */
  public PinnedDisruptorBuilder<T> timeout(Duration timeout) {
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    return this;
  }

  /**
   * Plans the layout on the pool's free CPUs (those no other process or factory holds), audits if
   * asked, chooses the wait strategy and creates the Disruptor. Nothing runs until {@link
   * PinnedDisruptor#start()}.
   *
   * @return the Disruptor, its CPUs reserved; close it to free them
   * @throws IllegalArgumentException if the pool is not one this process may use
   * @throws IllegalStateException if a thread finds no CPU and the run-out policy is FAIL
   */
  public PinnedDisruptor<T> build() {
    if (pinning == Pinning.UNPINNED) {
      group.unpinned("pinning: unpinned");
    }
    ConsumerThreads threads = ConsumerThreads.seat(group.build(), pinning, consumers);
    try {
      PipelineAssignments layout = threads.layout(pinning);
      ExclusivityCheck check =
          audit
              .map(w -> ExclusivityCheck.run(kit, layout, w))
              .orElseGet(() -> ExclusivityCheck.none());
      try {
        return new PinnedDisruptor<>(this, threads, layout, check);
      } catch (RuntimeException | Error e) {
        check.undo();
        throw e;
      }
    } catch (RuntimeException | Error e) {
      threads.close(); // a failed build holds no CPU
      throw e;
    }
  }

  AffinityKit kit() {
    return kit;
  }

  EventFactory<T> eventFactory() {
    return eventFactory;
  }

  int ringSize() {
    return ringSize;
  }

  ProducerType producerType() {
    return producerType;
  }

  Optional<WaitKind> override() {
    return override;
  }

  Duration timeout() {
    return timeout;
  }
}
