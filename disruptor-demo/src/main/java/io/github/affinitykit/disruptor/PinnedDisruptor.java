package io.github.affinitykit.disruptor;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import io.github.affinitykit.audit.CpuAudit;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.Assignment;
import io.github.affinitykit.core.CpuIsolation;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A Disruptor 4 whose consumers run on CPUs planned and pinned through affinity-core, with the wait
 * strategy their placement deserves ({@link WaitChoice#advise}) or the one the user named, and the
 * report of both ({@link #choice()}).
 *
 * <pre>{@code
 * try (PinnedDisruptor<Event> pd = PinnedDisruptor.builder(kit, Event::new).consumers(2).build()) {
 *   pd.disruptor().handleEventsWith(stage1).then(stage2); // exactly consumers(n) processors
 *   RingBuffer<Event> ring = pd.start();                   // consumers run pinned when it returns
 *   System.out.println(pd.choice().describe());
 *   ring.publishEvent((e, seq) -> e.value = seq);
 * }                                                        // halts, joins, frees the CPUs
 * }</pre>
 *
 * <p>Thread safety: wire handlers, {@link #start()} and {@link #close()} from one thread; {@link
 * #pinProducer()} from the producer thread; the accessors from any thread.
 *
 * @param <T> the event type
 */
public final class PinnedDisruptor<T> implements AutoCloseable {
  private final AffinityKit kit;
  private final Disruptor<T> disruptor;
  private final PipelineAssignments layout;
  private final WaitChoice choice;
  private final ConsumerThreads threads;
  private final ExclusivityCheck check;
  private final Duration timeout;
  private final AtomicReference<CpuLease> producer = new AtomicReference<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile List<String> deviations = List.of();

  PinnedDisruptor(
      PinnedDisruptorBuilder<T> b,
      ConsumerThreads threads,
      PipelineAssignments layout,
      ExclusivityCheck check) {
    this.kit = b.kit();
    this.layout = layout;
    this.check = check;
    this.timeout = b.timeout();
    WaitChoice advised = WaitChoice.advise(kit.host(), layout, check.exclusive(), check.audited());
    this.choice = b.override().map(advised::overriddenBy).orElse(advised);
    this.threads = threads;
    this.disruptor =
        new Disruptor<>(
            b.eventFactory(), b.ringSize(), threads, b.producerType(), choice.strategy().create());
  }

  /**
   * Returns a builder of a Disruptor on {@code kit} of events made by {@code events}.
   *
   * @param <T> the event type
   * @param kit the kit whose pool the threads are planned on; not null
   * @param events makes the ring's events, one per slot, when the Disruptor is built; not null
   * @return a new builder with the defaults listed on {@link PinnedDisruptorBuilder}
   */
  public static <T> PinnedDisruptorBuilder<T> builder(
      AffinityKit kit, com.lmax.disruptor.EventFactory<T> events) {
    return new PinnedDisruptorBuilder<>(kit, events);
  }

  /**
   * Returns the Disruptor, to wire handlers on before {@link #start()}.
   *
   * @return the Disruptor, made with {@link #choice()}'s strategy; the same on every call
   */
  public Disruptor<T> disruptor() {
    return disruptor;
  }

  /**
   * Returns the planned placement of producer and consumers.
   *
   * @return the plan made at build time; where threads run now: {@link #consumerAssignments()}
   */
  public PipelineAssignments assignments() {
    return layout;
  }

  /**
   * Returns the wait strategy in use, what placement chose and why, per thread.
   *
   * @return the choice made at build time, overridden if the builder named a strategy
   */
  public WaitChoice choice() {
    return choice;
  }

  /**
   * Returns the runtime isolation of the threads' CPUs, if the builder asked for one: its reason
   * says whether it was made, and affinity-isolation's {@code Isolation.of(handle).report()} how,
   * and what stays.
   *
   * @return the threads' isolation; empty when their group did not ask for one
   */
  public Optional<CpuIsolation> isolation() {
    return threads.isolation();
  }

  /**
   * Returns the exclusivity audit of the consumers' CPUs, if the builder asked for one.
   *
   * @return the audit run while building; empty unless {@code auditExclusivity} was set
   */
  public Optional<CpuAudit> audit() {
    return check.audit();
  }

  /**
   * Starts the Disruptor and waits until every consumer thread runs on its CPU.
   *
   * @return the Disruptor's ring buffer, to publish to
   * @throws IllegalStateException (after halting) if the Disruptor started a different number of
   *     processors than {@code consumers(n)} planned, if they did not all start within the
   *     builder's timeout, or if the placement chose BUSY_SPIN and a consumer did not get its CPU
   * @throws InterruptedException if interrupted while waiting
   */
  public RingBuffer<T> start() throws InterruptedException {
    RingBuffer<T> ring = disruptor.start();
    int planned = layout.consumers().size();
    if (threads.created() != planned) {
      close();
      throw new IllegalStateException(
          "consumers: the Disruptor started "
              + threads.created()
              + " event processors (expected: "
              + planned
              + ", as planned by consumers("
              + planned
              + "))");
    }
    if (!threads.awaitRunning(timeout)) {
      close();
      throw new IllegalStateException("consumers: not all running after " + timeout);
    }
    deviations = deviations();
    if (choice.strategy() == WaitKind.BUSY_SPIN && !choice.overridden() && !deviations.isEmpty()) {
      close();
      throw new IllegalStateException("BUSY_SPIN was chosen for a placement that " + deviations);
    }
    return ring;
  }

  private List<String> deviations() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < layout.consumers().size(); i++) {
      Assignment a = threads.assignment(i);
      boolean bound = a.status() == LeaseStatus.PINNED || a.status() == LeaseStatus.SHARED;
      if (layout.consumerCpu(i) >= 0 && (!bound || a.cpu() != layout.consumerCpu(i))) {
        out.add("consumer-" + i + " planned on cpu " + layout.consumerCpu(i) + " is " + a);
      }
    }
    return List.copyOf(out);
  }

  /**
   * Returns, after {@link #start()}, each consumer that did not get its planned CPU, and why.
   *
   * @return one line per such consumer; empty before {@link #start()} or when all got theirs
   */
  public List<String> placementDeviations() {
    return deviations;
  }

  /**
   * Pins the calling thread (the producer) to its planned CPU, sharing it with consumers planned
   * there. {@link #close()} closes the lease too.
   *
   * @return the producer's lease; FAILED, with the kernel's reason, if the kernel refused
   * @throws IllegalStateException unless pinning is {@link Pinning#ALL} and the producer got a CPU
   *     (run-out may leave it none), or if already pinned
   */
  public CpuLease pinProducer() {
    if (layout.pinning() != Pinning.ALL || layout.producer().cpu() < 0) {
      throw new IllegalStateException(
          "pinProducer: pinning "
              + layout.pinning()
              + ", producer "
              + layout.producer().reason()
              + " (expected: pinning ALL with a CPU for the producer)");
    }
    CpuLease lease = threads.pinProducer();
    if (!producer.compareAndSet(null, lease)) {
      lease.close();
      throw new IllegalStateException("pinProducer: the producer is already pinned");
    }
    return lease;
  }

  /**
   * Returns each consumer's assignment (thread, TID, CPU, status, reason), by consumer index.
   *
   * @return a new list of snapshots taken now, one per consumer
   */
  public List<Assignment> consumerAssignments() {
    List<Assignment> out = new ArrayList<>();
    for (int i = 0; i < layout.consumers().size(); i++) {
      out.add(threads.assignment(i));
    }
    return out;
  }

  /**
   * Returns the kernel thread ids of the consumers (-1 before they run or where unknown).
   *
   * @return a new list, one TID per consumer, by consumer index
   */
  public List<Integer> consumerThreadIds() {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < layout.consumers().size(); i++) {
      out.add(threads.tid(i));
    }
    return out;
  }

  /**
   * Halts the consumers (events not yet processed are dropped: call {@code
   * disruptor().shutdown(timeout)} first to drain), waits for their threads to end, frees every CPU
   * (consumers' and producer's), and gives threads confined by the audit their masks back.
   * Idempotent.
   *
   * @throws IllegalStateException if a consumer thread is still alive after the builder's timeout
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    disruptor.halt();
    List<Thread> alive;
    try {
      alive = threads.join(timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // stop waiting, still free what can be freed
      alive = threads.alive();
    }
    threads.close();
    Optional.ofNullable(producer.get()).ifPresent(CpuLease::close);
    check.undo();
    if (!alive.isEmpty()) {
      throw new IllegalStateException(
          "close: consumers still running after " + timeout + ": " + alive);
    }
  }
}
