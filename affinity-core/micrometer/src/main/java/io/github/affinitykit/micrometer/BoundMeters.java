package io.github.affinitykit.micrometer;

import static io.github.affinitykit.micrometer.AffinityMeterBinder.CPU_INTRUDERS;
import static io.github.affinitykit.micrometer.AffinityMeterBinder.CPU_VERDICT;
import static io.github.affinitykit.micrometer.AffinityMeterBinder.LEASES_LOST;
import static io.github.affinitykit.micrometer.AffinityMeterBinder.LEASES_MOVED;
import static io.github.affinitykit.micrometer.AffinityMeterBinder.THREADS;
import static io.github.affinitykit.micrometer.AffinityMeterBinder.THREAD_CONTEXT_SWITCHES;
import static io.github.affinitykit.micrometer.AffinityMeterBinder.THREAD_CPU_TIME;

import io.github.affinitykit.audit.CpuVerdict;
import io.github.affinitykit.audit.CpuVerdict.Verdict;
import io.github.affinitykit.audit.TaskReader;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * The meters {@link AffinityMeterBinder} keeps in one registry: the kit's fixed meters, registered
 * once, and the meters of each open lease and of each audited CPU, added and removed by {@link
 * #sync}.
 *
 * <p>Thread safety: not thread-safe; the binder calls it under its own lock. The registry reads the
 * meters from any thread.
 */
final class BoundMeters {
  /** The statuses an open lease can hold: bound at first, then LOST or MOVED when checks say so. */
  static final List<LeaseStatus> OPEN_STATUSES =
      List.of(LeaseStatus.PINNED, LeaseStatus.SHARED, LeaseStatus.MOVED, LeaseStatus.LOST);

  private final MeterRegistry registry;
  private final Map<CpuLease, ThreadMeters> threads = new IdentityHashMap<>();
  private final Map<Integer, CpuMeters> cpus = new TreeMap<>();

  BoundMeters(MeterRegistry registry, AffinityKit kit) {
    this.registry = registry;
    for (LeaseStatus s : OPEN_STATUSES) {
      Gauge.builder(THREADS, kit, k -> count(k, s))
          .tag("status", lower(s))
          .description("Threads the kit holds a lease for, by the lease's status.")
          .baseUnit(BaseUnits.THREADS)
          .register(registry);
    }
    FunctionCounter.builder(LEASES_MOVED, kit, AffinityKit::movedTotal)
        .description("Leases whose thread a check found moved off its CPU.")
        .register(registry);
    FunctionCounter.builder(LEASES_LOST, kit, AffinityKit::lostTotal)
        .description("Leases whose CPU reservation a check found lost.")
        .register(registry);
  }

  /** Adds the meters of the leases new in {@code open}, removes those of the leases gone. */
  void syncThreads(List<CpuLease> open, TaskReader reader, int pid) {
    Set<CpuLease> now = Collections.newSetFromMap(new IdentityHashMap<>());
    now.addAll(open);
    for (Iterator<Map.Entry<CpuLease, ThreadMeters>> it = threads.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<CpuLease, ThreadMeters> e = it.next();
      if (!now.contains(e.getKey())) {
        e.getValue().meters().forEach(registry::remove);
        it.remove();
      }
    }
    for (CpuLease lease : open) {
      if (!threads.containsKey(lease)) {
        threads.put(lease, threadMeters(lease, reader, pid));
      }
    }
  }

  /**
   * Sets the verdict of every CPU in {@code verdicts}, removes the meters of the CPUs not in it.
   */
  void syncCpus(List<CpuVerdict> verdicts) {
    Set<Integer> audited = new HashSet<>();
    for (CpuVerdict v : verdicts) {
      audited.add(v.cpu());
      cpus.computeIfAbsent(v.cpu(), c -> new CpuMeters(registry, v)).set(v);
    }
    for (Iterator<CpuMeters> it = cpus.values().iterator(); it.hasNext(); ) {
      CpuMeters m = it.next();
      if (!audited.contains(m.cpu())) {
        m.remove(registry);
        it.remove();
      }
    }
  }

  /**
   * The meters of one lease's thread, empty where its task files cannot be read. The returned
   * record holds the probe strongly: a function counter holds it only weakly, and without this
   * reference a collection would leave the counters at their last value.
   */
  private ThreadMeters threadMeters(CpuLease lease, TaskReader reader, int pid) {
    Optional<ThreadProbe> probe = ThreadProbe.of(reader, pid, lease.tid());
    if (probe.isEmpty()) {
      return new ThreadMeters(Optional.empty(), List.of());
    }
    ThreadProbe p = probe.get();
    Tags tags =
        Tags.of(
            "thread", lease.threadName(),
            "tid", String.valueOf(lease.tid()),
            "cpu", String.valueOf(lease.cpu()),
            "group", lease.group());
    List<Meter> out = new ArrayList<>();
    out.add(
        FunctionCounter.builder(THREAD_CPU_TIME, p, ThreadProbe::cpuSeconds)
            .tags(tags)
            .description("User and system CPU time of a pinned thread.")
            .baseUnit("seconds")
            .register(registry));
    if (p.sample().voluntarySwitches() >= 0) { // -1: the kernel does not say
      out.add(switches(p, tags, "voluntary", ThreadProbe::voluntarySwitches));
      out.add(switches(p, tags, "involuntary", ThreadProbe::involuntarySwitches));
    }
    return new ThreadMeters(probe, List.copyOf(out));
  }

  private Meter switches(ThreadProbe p, Tags tags, String kind, ToDoubleFunction<ThreadProbe> f) {
    return FunctionCounter.builder(THREAD_CONTEXT_SWITCHES, p, f)
        .tags(tags.and("kind", kind))
        .description("Context switches of a pinned thread: voluntary (it blocked), involuntary.")
        .register(registry);
  }

  private static double count(AffinityKit kit, LeaseStatus status) {
    return kit.leases().stream().filter(l -> l.status() == status).count();
  }

  static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }

  /**
   * The meters of one lease's thread and the probe they read: the strong reference to the probe
   * (their function counters hold it weakly) lives as long as the meters are registered.
   *
   * @param probe the thread's probe; empty where its task files could not be read
   * @param meters the thread's meters, removed with the lease
   */
  private record ThreadMeters(Optional<ThreadProbe> probe, List<Meter> meters) {}

  /**
   * The meters of one audited CPU: one verdict gauge per verdict (1 for its own), the intruders.
   */
  private static final class CpuMeters {
    private final int cpu;
    private final List<Meter> meters = new ArrayList<>();
    private volatile CpuVerdict verdict;

    CpuMeters(MeterRegistry registry, CpuVerdict first) {
      this.cpu = first.cpu();
      this.verdict = first; // before the first meter: a scrape may read it at once
      String tag = String.valueOf(cpu);
      for (Verdict v : Verdict.values()) {
        meters.add(
            Gauge.builder(CPU_VERDICT, this, m -> m.verdict.verdict() == v ? 1 : 0)
                .tags("cpu", tag, "verdict", lower(v))
                .description("The latest exclusivity audit of a CPU: 1 for its verdict, else 0.")
                .strongReference(true)
                .register(registry));
      }
      meters.add(
          Gauge.builder(CPU_INTRUDERS, this, m -> m.verdict.intruders().size())
              .tag("cpu", tag)
              .description("What else the latest audit found running or allowed on a CPU.")
              .strongReference(true)
              .register(registry));
    }

    int cpu() {
      return cpu;
    }

    void set(CpuVerdict v) {
      verdict = v;
    }

    void remove(MeterRegistry registry) {
      meters.forEach(registry::remove);
    }
  }
}
