package io.github.affinitykit.netty.gateway;

import io.github.affinitykit.core.TaskSample;
import io.github.affinitykit.core.ThreadStats;
import io.github.affinitykit.netty.LoopAssignment;
import io.github.affinitykit.netty.PlacementReport;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Renders {@code /metrics}: the gateway's counters, process CPU (seconds, and percent since the
 * previous scrape), every thread's CPU time and context switches from {@link ThreadStats}, and
 * where every loop is pinned.
 *
 * <p>Thread safety: {@link #render()} may be called from any thread; scrapes are serialised.
 */
final class MetricsText {
  private static final String P = "affinitykit_";

  private final GatewayMetrics metrics;
  private final Supplier<PlacementReport> report;
  private final String pin;
  private ThreadStats previous; // guarded by this

  MetricsText(GatewayMetrics metrics, Supplier<PlacementReport> report, String pin) {
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.report = Objects.requireNonNull(report, "report");
    this.pin = Objects.requireNonNull(pin, "pin");
    this.previous = ThreadStats.snapshot();
  }

  synchronized String render() {
    ThreadStats now = ThreadStats.snapshot();
    double cpuPercent = now.cpuPercentSince(previous);
    previous = now;
    PlacementReport r = report.get();
    PromWriter w = new PromWriter();
    gateway(w, r);
    process(w, now, cpuPercent);
    JvmMemoryText.write(w);
    threads(w, now.threads(), roles(r));
    loops(w, r.loops());
    return w.toString();
  }

  private void gateway(PromWriter w, PlacementReport r) {
    w.family(P + "gateway_info", "gauge", "Transport and pin mode of this gateway.")
        .sample(
            P + "gateway_info",
            1,
            "transport",
            r.transport().transport().name(),
            "pin",
            pin,
            "transport_reason",
            r.transport().reason());
    w.family(P + "gateway_connections", "gauge", "WebSocket connections open now.")
        .sample(P + "gateway_connections", metrics.connectionsOpen());
    counter(
        w,
        "gateway_connections_accepted_total",
        "WebSocket connections accepted.",
        metrics.connectionsTotal());
    counter(
        w, "gateway_messages_received_total", "WebSocket messages accepted.", metrics.messagesIn());
    counter(
        w,
        "gateway_messages_sent_total",
        "WebSocket messages written to clients.",
        metrics.messagesOut());
    counter(
        w,
        "gateway_messages_send_failed_total",
        "Writes that failed: client gone.",
        metrics.messagesFailed());
    counter(
        w, "gateway_bytes_received_total", "WebSocket payload bytes accepted.", metrics.bytesIn());
    counter(
        w,
        "gateway_bytes_sent_total",
        "WebSocket payload bytes queued for writing.",
        metrics.bytesOut());
    counter(
        w,
        "gateway_reads_paused_total",
        "Times a client was not read: replies pending.",
        metrics.readsPaused());
    counter(
        w,
        "gateway_messages_dropped_after_close_total",
        "Data frames ignored after the close handshake began.",
        metrics.droppedAfterClose());
    flow(w);
    closesAndResponses(w);
  }

  private void flow(PromWriter w) {
    w.family(
            P + "gateway_pending_bytes_max",
            "gauge",
            "Most bytes seen pending to one client when it went over its outbound limit.")
        .sample(P + "gateway_pending_bytes_max", metrics.maxPendingBytes());
    w.family(P + "gateway_pending_bytes", "gauge", "Bytes waiting to be written to clients now.")
        .sample(P + "gateway_pending_bytes", metrics.pendingBytes());
    counter(w, "gateway_pongs_sent_total", "Pongs sent.", metrics.pongsSent());
    counter(
        w,
        "gateway_pings_coalesced_total",
        "Pings not answered: a later one came while the client was over its limit.",
        metrics.pingsCoalesced());
  }

  private void closesAndResponses(PromWriter w) {
    w.family(P + "gateway_closes_sent_total", "counter", "Close frames sent, by status code.");
    metrics
        .closesSent()
        .forEach(
            (code, n) ->
                w.sample(P + "gateway_closes_sent_total", n, "code", String.valueOf(code)));
    w.family(P + "gateway_http_responses_total", "counter", "Plain HTTP responses, by status.");
    metrics
        .httpResponses()
        .forEach(
            (status, n) ->
                w.sample(P + "gateway_http_responses_total", n, "status", String.valueOf(status)));
  }

  private static void counter(PromWriter w, String name, String help, long value) {
    w.family(P + name, "counter", help).sample(P + name, value);
  }

  private static void process(PromWriter w, ThreadStats now, double cpuPercent) {
    w.family("process_cpu_seconds_total", "counter", "User and system CPU time of this JVM.")
        .sample("process_cpu_seconds_total", now.processCpuNs() / 1e9);
    w.family(
            P + "process_cpu_percent",
            "gauge",
            "CPU use of this JVM since the previous scrape, percent of one CPU.")
        .sample(P + "process_cpu_percent", cpuPercent);
    long vol = 0;
    long invol = 0;
    for (TaskSample t : now.threads()) {
      vol += Math.max(0, t.voluntarySwitches());
      invol += Math.max(0, t.involuntarySwitches());
    }
    // A gauge, not a counter: summed over the threads alive now, it drops when a thread ends.
    w.family(
            P + "process_live_thread_context_switches",
            "gauge",
            "Context switches of the threads alive now, by kind (drops when a thread ends).")
        .sample(P + "process_live_thread_context_switches", vol, "kind", "voluntary")
        .sample(P + "process_live_thread_context_switches", invol, "kind", "involuntary");
    w.family(P + "process_threads", "gauge", "Threads of this JVM.")
        .sample(P + "process_threads", now.threads().size());
  }

  private static void threads(PromWriter w, List<TaskSample> threads, Map<Integer, String> roles) {
    String cpu = P + "thread_cpu_seconds_total";
    w.family(cpu, "counter", "CPU time of each thread of this JVM.");
    threads.forEach(t -> w.sample(cpu, t.cpuNs() / 1e9, labels(t, roles)));
    String cs = P + "thread_context_switches_total";
    w.family(cs, "counter", "Context switches of each thread, by kind.");
    for (TaskSample t : threads) {
      w.sample(cs, Math.max(0, t.voluntarySwitches()), with(labels(t, roles), "voluntary"));
      w.sample(cs, Math.max(0, t.involuntarySwitches()), with(labels(t, roles), "involuntary"));
    }
    String last = P + "thread_last_cpu";
    w.family(last, "gauge", "The CPU each thread last ran on.");
    threads.forEach(t -> w.sample(last, t.lastCpu(), labels(t, roles)));
  }

  private static String[] labels(TaskSample t, Map<Integer, String> roles) {
    return new String[] {
      "tid", String.valueOf(t.tid()), "thread", t.name(), "loop", roles.getOrDefault(t.tid(), "")
    };
  }

  private static String[] with(String[] labels, String kind) {
    String[] out = java.util.Arrays.copyOf(labels, labels.length + 2);
    out[labels.length] = "kind";
    out[labels.length + 1] = kind;
    return out;
  }

  private static Map<Integer, String> roles(PlacementReport r) {
    Map<Integer, String> out = new HashMap<>();
    for (LoopAssignment l : r.loops()) {
      if (l.running() && l.tid() > 0) {
        out.put(l.tid(), l.group() + "-" + l.index());
      }
    }
    return out;
  }

  private static void loops(PromWriter w, List<LoopAssignment> loops) {
    String name = P + "loop_cpu";
    w.family(name, "gauge", "The CPU each event loop is pinned to, -1 if none.");
    for (LoopAssignment l : loops) {
      w.sample(
          name,
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
