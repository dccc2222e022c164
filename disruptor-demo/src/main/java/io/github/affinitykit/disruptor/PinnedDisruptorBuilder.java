package io.github.affinitykit.disruptor;

import com.lmax.disruptor.EventFactory;
import com.lmax.disruptor.dsl.ProducerType;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuGroupBuilder;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.RunOutPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Configures a {@link PinnedDisruptor}: its threads are one {@link CpuGroup}. Defaults: ring of
 * 1024, {@link ProducerType#SINGLE}, one consumer, {@link Pinning#CONSUMERS}, the kit's pool,
 * placements {@link #DEFAULT_PLACEMENTS}, run-out {@link RunOutPolicy#SHARE}, wait strategy chosen
 * by {@link WaitAdvisor}, no audit, threads named {@code disruptor-consumer-<n>}, 10 s timeout for
 * starting and stopping threads.
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
  private Optional<CpuSet> pool = Optional.empty();
  private List<Placement> placements = DEFAULT_PLACEMENTS;
  private RunOutPolicy runOut = RunOutPolicy.SHARE;
  private Optional<WaitKind> override = Optional.empty();
  private Optional<Duration> audit = Optional.empty();
  private String name = "disruptor";
  private Duration timeout = Duration.ofSeconds(10);
  private boolean isolate;

  PinnedDisruptorBuilder(AffinityKit kit, EventFactory<T> eventFactory) {
    this.kit = Objects.requireNonNull(kit, "kit");
    this.eventFactory = Objects.requireNonNull(eventFactory, "eventFactory");
  }

  /**
   * Sets the ring size, a power of two.
   *
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

  /** Sets the producer type (default {@link ProducerType#SINGLE}). */
  public PinnedDisruptorBuilder<T> producerType(ProducerType type) {
    this.producerType = Objects.requireNonNull(type, "type");
    return this;
  }

  /**
   * Sets how many event processors (threads) the Disruptor will run: exactly as many as the
   * handlers wired before {@link PinnedDisruptor#start()}, in wiring order.
   */
  public PinnedDisruptorBuilder<T> consumers(int consumers) {
    if (consumers < 1) {
      throw new IllegalArgumentException("consumers: " + consumers + " (expected: >= 1)");
    }
    this.consumers = consumers;
    return this;
  }

  /** Sets which threads are pinned (default {@link Pinning#CONSUMERS}). */
  public PinnedDisruptorBuilder<T> pinning(Pinning pinning) {
    this.pinning = Objects.requireNonNull(pinning, "pinning");
    return this;
  }

  /** Draws CPUs from {@code cpus} (checked against the host) instead of the kit's pool. */
  public PinnedDisruptorBuilder<T> pool(CpuSet cpus) {
    this.pool = Optional.of(Objects.requireNonNull(cpus, "cpus"));
    return this;
  }

  /** Sets the placements tried for each thread after the first. */
  public PinnedDisruptorBuilder<T> placements(Placement... placements) {
    this.placements = List.of(placements);
    return this;
  }

  /** Sets what happens to threads left without a free CPU (default {@link RunOutPolicy#SHARE}). */
  public PinnedDisruptorBuilder<T> runOut(RunOutPolicy policy) {
    this.runOut = Objects.requireNonNull(policy, "policy");
    return this;
  }

  /** Uses {@code strategy} whatever the placement; {@link WaitChoice} still says what it chose. */
  public PinnedDisruptorBuilder<T> waitStrategy(WaitKind strategy) {
    this.override = Optional.of(Objects.requireNonNull(strategy, "strategy"));
    return this;
  }

  /**
   * Before the consumers start, confines every other thread of this JVM (the caller included) to
   * the CPUs outside the consumers' cores and audits the consumers' CPUs for {@code window}: a CPU
   * found EXCLUSIVE counts as an exclusive core. {@link PinnedDisruptor#close()} gives the confined
   * threads their masks back. {@code build()} blocks for the window.
   */
  public PinnedDisruptorBuilder<T> auditExclusivity(Duration window) {
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("window: " + window + " (expected: > 0)");
    }
    this.audit = Optional.of(window);
    return this;
  }

  /**
   * Whether to make the CPUs of the Disruptor's pinned threads exclusive at runtime once they are
   * reserved, before any audit ({@link AffinityKit#isolate}; default false): it changes the whole
   * machine, other processes included. Undone when the Disruptor is closed and its threads have let
   * go, or at JVM exit. Without permission the threads are pinned as usual and {@link
   * PinnedDisruptor#isolation()} says why.
   */
  public PinnedDisruptorBuilder<T> isolate(boolean isolate) {
    this.isolate = isolate;
    return this;
  }

  /** Names consumer threads {@code name-consumer-<n>}. */
  public PinnedDisruptorBuilder<T> name(String name) {
    this.name = Objects.requireNonNull(name, "name");
    return this;
  }

  /** Sets how long start and close wait for consumer threads (default 10 s). */
  public PinnedDisruptorBuilder<T> timeout(Duration timeout) {
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    return this;
  }

  /**
   * Plans the layout on the pool's free CPUs (those no other process or factory holds), audits if
   * asked, chooses the wait strategy and creates the Disruptor. Nothing runs until {@link
   * PinnedDisruptor#start()}.
   *
   * @throws IllegalArgumentException if the pool is not one this process may use
   * @throws IllegalStateException if a thread finds no CPU and the run-out policy is FAIL
   */
  public PinnedDisruptor<T> build() {
    CpuGroupBuilder g = kit.group(name).placements(placements).runOut(runOut);
    pool.ifPresent(c -> g.pool(kit.host().pool(c).cpus()));
    if (pinning == Pinning.NONE) {
      g.off("pinning NONE");
    }
    ConsumerThreads threads = ConsumerThreads.seat(g.build(), pinning, name, consumers);
    try {
      if (isolate && pinning != Pinning.NONE) {
        threads.isolate();
      }
      Layout layout = threads.layout(pinning);
      ExclusivityCheck check =
          audit
              .map(w -> ExclusivityCheck.run(kit, layout, w))
              .orElseGet(() -> ExclusivityCheck.none(kit));
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

  String name() {
    return name;
  }

  Duration timeout() {
    return timeout;
  }
}
