package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.audit.TaskReader;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.testkit.FixtureKits;
import io.github.affinitykit.micrometer.AffinityMeterBinder;
import io.github.affinitykit.netty.AssignmentReport;
import io.github.affinitykit.netty.LoopAssignment;
import io.github.affinitykit.netty.Transport;
import io.github.affinitykit.netty.TransportChoice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /metrics} through Micrometer keeps every name and type it had, and forgets dead threads.
 */
@EnabledOnOs(OS.LINUX)
class MetricsTextTest {
  /** Every family {@code /metrics} exposed before Micrometer, with its type. */
  private static final Map<String, String> TODAY =
      Map.ofEntries(
          Map.entry("affinitykit_gateway_info", "gauge"),
          Map.entry("affinitykit_gateway_connections", "gauge"),
          Map.entry("affinitykit_gateway_connections_accepted_total", "counter"),
          Map.entry("affinitykit_gateway_messages_received_total", "counter"),
          Map.entry("affinitykit_gateway_messages_sent_total", "counter"),
          Map.entry("affinitykit_gateway_messages_send_failed_total", "counter"),
          Map.entry("affinitykit_gateway_bytes_received_total", "counter"),
          Map.entry("affinitykit_gateway_bytes_sent_total", "counter"),
          Map.entry("affinitykit_gateway_reads_paused_total", "counter"),
          Map.entry("affinitykit_gateway_messages_dropped_after_close_total", "counter"),
          Map.entry("affinitykit_gateway_pending_bytes_max", "gauge"),
          Map.entry("affinitykit_gateway_pending_bytes", "gauge"),
          Map.entry("affinitykit_gateway_pongs_sent_total", "counter"),
          Map.entry("affinitykit_gateway_pings_coalesced_total", "counter"),
          Map.entry("affinitykit_gateway_closes_sent_total", "counter"),
          Map.entry("affinitykit_gateway_http_responses_total", "counter"),
          Map.entry("process_cpu_seconds_total", "counter"),
          Map.entry("affinitykit_process_cpu_percent", "gauge"),
          Map.entry("affinitykit_process_live_thread_context_switches", "gauge"),
          Map.entry("affinitykit_process_threads", "gauge"),
          Map.entry("jvm_memory_used_bytes", "gauge"),
          Map.entry("jvm_memory_max_bytes", "gauge"),
          Map.entry("jvm_memory_used_after_gc_bytes", "gauge"),
          Map.entry("jvm_buffer_memory_used_bytes", "gauge"),
          Map.entry("affinitykit_netty_allocator_used_bytes", "gauge"),
          Map.entry("affinitykit_thread_cpu_seconds_total", "counter"),
          Map.entry("affinitykit_thread_context_switches_total", "counter"),
          Map.entry("affinitykit_thread_last_cpu", "gauge"),
          Map.entry("affinitykit_loop_cpu", "gauge"));

  private final GatewayMetrics metrics = new GatewayMetrics();
  private final AssignmentReport report =
      new AssignmentReport(
          new TransportChoice(Transport.AUTO, Transport.NIO, "IO_URING unavailable: \"x\""),
          List.of(
              new LoopAssignment("worker", 0, 1, LeaseStatus.PINNED, "ok", "w-0", 42, 1, true)));

  @Test
  void shouldExposeEveryNameAndTypeOfBeforeWithTheGatewayCounts() {
    metrics.opened();
    metrics.received(5);
    metrics.closeSent(1000);
    metrics.httpResponse(404);

    Map<String, PromParser.Family> f = render();

    TODAY.forEach((name, type) -> assertThat(f.get(name)).as(name).isNotNull());
    TODAY.forEach((name, type) -> assertThat(f.get(name).type()).as(name).isEqualTo(type));
    assertThat(f.get("affinitykit_gateway_messages_received_total").samples().get(0).value())
        .isEqualTo(1);
    assertThat(f.get("affinitykit_gateway_bytes_received_total").samples().get(0).value())
        .isEqualTo(5);
    assertThat(f.get("affinitykit_gateway_closes_sent_total").samples().get(0).labels())
        .containsEntry("code", "1000");
    assertThat(f.get("affinitykit_gateway_info").samples().get(0).labels())
        .containsEntry("transport", "NIO")
        .containsEntry("pin", "pinned")
        .containsEntry("transport_reason", "IO_URING unavailable: \"x\"");
    assertThat(f.get("affinitykit_loop_cpu").samples().get(0).labels())
        .containsEntry("loop", "worker-0")
        .containsEntry("tid", "42");
  }

  @Test
  void shouldPublishTheHeapAfterTheLatestCollection() {
    byte[][] live = new byte[64][];
    for (int i = 0; i < live.length; i++) {
      live[i] = new byte[64 * 1024]; // 4 MiB this test holds across the collection
    }
    System.gc(); // a collection the JVM reports, whichever collector runs

    double afterGc = render().get("jvm_memory_used_after_gc_bytes").samples().get(0).value();

    assertThat(afterGc).isGreaterThanOrEqualTo(4.0 * (1 << 20));
    assertThat(live[63]).hasSize(64 * 1024);
  }

  @Test
  @Timeout(30)
  void shouldDropTheSeriesOfAThreadThatEndedAtTheNextScrape() throws Exception {
    MetricsText text = new MetricsText(metrics, () -> report, "pinned");
    CountDownLatch seen = new CountDownLatch(1);
    CountDownLatch end = new CountDownLatch(1);
    AtomicReference<String> first = new AtomicReference<>();
    Thread t =
        new Thread(
            () -> {
              first.set(text.render());
              seen.countDown();
              awaitQuietly(end);
            },
            "mt-short-lived");
    t.start();
    assertThat(seen.await(20, TimeUnit.SECONDS)).isTrue();
    Matcher tid = Pattern.compile("thread=\"mt-short-lived\",tid=\"(\\d+)\"").matcher(first.get());
    assertThat(tid.find()).as("the live thread's series").isTrue();
    end.countDown();
    t.join(20_000);
    // Java's join returns before the kernel task is gone from /proc: wait for that, bounded.
    Path task = Path.of("/proc/self/task", tid.group(1));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (Files.exists(task) && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }

    assertThat(Files.exists(task)).as(task.toString()).isFalse();
    assertThat(text.render()).doesNotContain("mt-short-lived");
  }

  @Test
  void shouldAddTheKitsFamiliesThroughItsMeterBinderWithPrometheusNamesAndTypes(@TempDir Path root)
      throws Exception {
    AffinityKit kit = FixtureKits.isolating(root, 4);
    metrics.closeSent(1000); // the by-code families appear with their first code
    metrics.httpResponse(404);
    try (CpuLease lease = kit.pinCurrentThread(2)) {
      String task = "proc/4242/task/" + lease.tid() + "/";
      write(
          root.resolve(task + "stat"),
          lease.tid()
              + " (pinned) S 1 1 1 0 -1 0 10 0 0 0 150 50 0 0 20 0 1 0 100 0 0 1"
              + " 0 0 0 0 0 0 0 0 0 0 0 0 17 2 0 0 0 0 0");
      write(
          root.resolve(task + "status"),
          "Name:\tpinned\nvoluntary_ctxt_switches:\t8\nnonvoluntary_ctxt_switches:\t2\n");
      AffinityMeterBinder binder =
          AffinityMeterBinder.builder(kit).tasks(TaskReader.at(root), 4242).build();

      Map<String, PromParser.Family> f =
          PromParser.parse(
              new MetricsText(metrics, () -> report, "pinned", Optional.of(binder)).render());

      assertThat(f.get("affinity_threads").type()).isEqualTo("gauge");
      assertThat(f.get("affinity_threads").samples())
          .anyMatch(x -> x.labels().equals(Map.of("status", "pinned")) && x.value() == 1);
      assertThat(f.get("affinity_leases_moved_total").type()).isEqualTo("counter");
      assertThat(f.get("affinity_leases_lost_total").type()).isEqualTo("counter");
      PromParser.Family cpu = f.get("affinity_thread_cpu_time_seconds_total");
      assertThat(cpu.type()).isEqualTo("counter");
      assertThat(cpu.samples().get(0).value()).isEqualTo(2.0);
      assertThat(cpu.samples().get(0).labels())
          .isEqualTo(
              Map.of(
                  "cpu", "2",
                  "group", lease.group(),
                  "thread", Thread.currentThread().getName(),
                  "tid", String.valueOf(lease.tid())));
      assertThat(f.get("affinity_thread_context_switches_total").samples())
          .anyMatch(x -> x.labels().get("kind").equals("voluntary") && x.value() == 8);
      TODAY.forEach((name, type) -> assertThat(f.get(name)).as(name).isNotNull()); // all kept
    }
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  private Map<String, PromParser.Family> render() {
    return PromParser.parse(new MetricsText(metrics, () -> report, "pinned").render());
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(20, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
