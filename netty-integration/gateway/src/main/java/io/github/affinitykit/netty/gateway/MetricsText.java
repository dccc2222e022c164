package io.github.affinitykit.netty.gateway;

import io.github.affinitykit.audit.TaskSample;
import io.github.affinitykit.audit.ThreadStats;
import io.github.affinitykit.micrometer.AffinityMeterBinder;
import io.github.affinitykit.netty.AssignmentReport;
import io.github.affinitykit.netty.LoopAssignment;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.core.metrics.Info;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Renders {@code /metrics} (Prometheus text format 0.0.4) from a Micrometer {@link
 * PrometheusMeterRegistry} of its own: the gateway's counters ({@link GatewayMeters}), JVM and
 * Netty memory ({@link JvmMemoryMeters}), process CPU (seconds, and percent since the previous
 * scrape), every thread's CPU time and context switches from {@link ThreadStats}, and where every
 * loop is pinned. Series of threads that ended leave at the next scrape. With the kit's {@link
 * AffinityMeterBinder} (the gateway's own kit; none for handler tests) it adds the {@code
 * affinity_*} families: pinned threads by lease status, moves and losses, each pinned thread's CPU
 * time and context switches tagged with its CPU and group, and the start audit's CPU verdicts; the
 * binder is refreshed before each scrape.
 *
 * <p>Thread safety: {@link #render()} may be called from any thread; scrapes are serialised.
 */
final class MetricsText {
  private static final String P = "affinitykit_";

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final SampledMeters sampled = new SampledMeters(registry); // guarded by this
  private final Info info;
  private final GatewayMetrics metrics;
  private final Supplier<AssignmentReport> report;
  private final String pin;
  private final Optional<AffinityMeterBinder> kitMeters;
  private ThreadStats previous; // guarded by this

  /** Without a kit's meters: a gateway context for handler tests. */
  MetricsText(GatewayMetrics metrics, Supplier<AssignmentReport> report, String pin) {
    this(metrics, report, pin, Optional.empty());
  }

  MetricsText(
      GatewayMetrics metrics,
      Supplier<AssignmentReport> report,
      String pin,
      Optional<AffinityMeterBinder> kitMeters) {
    this.kitMeters = Objects.requireNonNull(kitMeters, "kitMeters");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.report = Objects.requireNonNull(report, "report");
    this.pin = Objects.requireNonNull(pin, "pin");
    this.previous = ThreadStats.snapshot();
    // An info metric is Prometheus' own type: Micrometer would drop the _info suffix of a gauge.
    this.info =
        Info.builder()
            .name(P + "gateway_info")
            .help("Transport and pin mode of this gateway.")
            .labelNames("transport", "pin", "transport_reason")
            .register(registry.getPrometheusRegistry());
    GatewayMeters.register(registry, metrics);
    JvmMemoryMeters.register(registry);
    kitMeters.ifPresent(b -> b.bindTo(registry));
  }

  synchronized String render() {
    ThreadStats now = ThreadStats.snapshot();
    double cpuPercent = now.cpuPercentSince(previous);
    previous = now;
    AssignmentReport r = report.get();
    info.setLabelValues(r.transport().transport().name(), pin, r.transport().reason());
    GatewayMeters.sample(sampled, metrics);
    process(now, cpuPercent);
    threads(now.threads(), roles(r));
    loops(r.loops());
    sampled.sweep();
    kitMeters.ifPresent(AffinityMeterBinder::refresh); // the leases opened and closed since
    return registry.scrape();
  }

  private void process(ThreadStats now, double cpuPercent) {
    sampled.counter(
        "process_cpu_seconds_total",
        "User and system CPU time of this JVM.",
        now.processCpuNs() / 1e9);
    sampled.gauge(
        P + "process_cpu_percent",
        "CPU use of this JVM since the previous scrape, percent of one CPU.",
        cpuPercent);
    long vol = 0;
    long invol = 0;
    for (TaskSample t : now.threads()) {
      vol += Math.max(0, t.voluntarySwitches());
      invol += Math.max(0, t.involuntarySwitches());
    }
    // A gauge, not a counter: summed over the threads alive now, it drops when a thread ends.
    String switches = P + "process_live_thread_context_switches";
    String help = "Context switches of the threads alive now, by kind (drops when a thread ends).";
    sampled.gauge(switches, help, vol, "kind", "voluntary");
    sampled.gauge(switches, help, invol, "kind", "involuntary");
    sampled.gauge(P + "process_threads", "Threads of this JVM.", now.threads().size());
  }

  private void threads(List<TaskSample> threads, Map<Integer, String> roles) {
    for (TaskSample t : threads) {
      String tid = String.valueOf(t.tid());
      String loop = roles.getOrDefault(t.tid(), "");
      sampled.counter(
          P + "thread_cpu_seconds_total",
          "CPU time of each thread of this JVM.",
          t.cpuNs() / 1e9,
          "tid",
          tid,
          "thread",
          t.name(),
          "loop",
          loop);
      String cs = P + "thread_context_switches_total";
      String help = "Context switches of each thread, by kind.";
      long vol = Math.max(0, t.voluntarySwitches());
      long invol = Math.max(0, t.involuntarySwitches());
      sampled.counter(
          cs, help, vol, "tid", tid, "thread", t.name(), "loop", loop, "kind", "voluntary");
      sampled.counter(
          cs, help, invol, "tid", tid, "thread", t.name(), "loop", loop, "kind", "involuntary");
      sampled.gauge(
          P + "thread_last_cpu",
          "The CPU each thread last ran on.",
          t.lastCpu(),
          "tid",
          tid,
          "thread",
          t.name(),
          "loop",
          loop);
    }
  }

  private static Map<Integer, String> roles(AssignmentReport r) {
    Map<Integer, String> out = new HashMap<>();
    for (LoopAssignment l : r.loops()) {
      if (l.running() && l.tid() > 0) {
        out.put(l.tid(), l.group() + "-" + l.index());
      }
    }
    return out;
  }

  private void loops(List<LoopAssignment> loops) {
    for (LoopAssignment l : loops) {
      sampled.gauge(
          P + "loop_cpu",
          "The CPU each event loop is pinned to, -1 if none.",
          l.cpu(),
          "loop",
          l.group() + "-" + l.index(),
          "status",
          l.status().name(),
          "thread",
          l.threadName(),
          "tid",
          String.valueOf(l.tid()));
    }
  }
}
