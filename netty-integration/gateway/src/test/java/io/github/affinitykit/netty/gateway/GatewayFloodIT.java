package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients that flood pings and never read: the gateway, a child JVM with a 64 MiB heap, keeps what
 * it holds for them under its outbound limit, answers {@code /health} throughout, and still stops
 * on SIGTERM with status 143. Without the limit (Netty answers every ping at once) the pongs pile
 * up until the heap is gone.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(90)
class GatewayFloodIT {
  private static final int CONNECTIONS = 4;
  private static final int HIGH = 64 * 1024;
  private static final long FLOOD_NS = TimeUnit.SECONDS.toNanos(6);

  /** Per connection: the high water mark, one pong, one in flight (Netty counts ~100 B each). */
  private static final long PENDING_BOUND = CONNECTIONS * (HIGH + 4096L);

  @TempDir Path dir;

  @Test
  void shouldStayBoundedAndHealthyUnderAPingFloodAndStopOnSigterm() throws Exception {
    ExecutorService flooders = Executors.newFixedThreadPool(CONNECTIONS);
    List<RawWs> clients = new ArrayList<>();
    AtomicLong pingsSent = new AtomicLong();
    try (GatewayChild p =
        GatewayChild.start(
            dir,
            List.of("-Xmx64m"),
            Map.of(),
            "--port",
            "0",
            "--pin",
            "unpinned",
            "--high-water-mark",
            String.valueOf(HIGH),
            "--drain-timeout",
            "1s")) {
      int port = p.awaitPort();
      Http.get(port, "/metrics"); // the first scrape's one-off costs, before the flood
      for (int i = 0; i < CONNECTIONS; i++) {
        RawWs c = RawWs.open(port, "/ws", 4096); // then never reads
        clients.add(c);
        flooders.execute(() -> flood(c, pingsSent));
      }
      long maxPending = 0;
      long maxHeap = 0;
      long maxRss = 0;
      int healthy = 0;
      long end = System.nanoTime() + FLOOD_NS;
      Map<String, PromParser.Family> m = Map.of();
      while (System.nanoTime() < end) { // sample the window every 250 ms
        assertThat(Http.get(port, "/health").status()).as(p.stderr()).isEqualTo(200);
        healthy++;
        m = PromParser.parse(Http.get(port, "/metrics").body());
        maxPending = Math.max(maxPending, value(m, "affinitykit_gateway_pending_bytes", ""));
        maxHeap = Math.max(maxHeap, value(m, "jvm_memory_used_bytes", "heap"));
        maxRss = Math.max(maxRss, rssBytes(p.process.pid()));
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(250));
      }
      long pongs = value(m, "affinitykit_gateway_pongs_sent_total", "");
      long pendingMax = value(m, "affinitykit_gateway_pending_bytes_max", "");
      System.out.printf(
          "ping flood: %d pings sent, %d pongs, %d coalesced, %d /health OK; max pending %d B"
              + " (bound %d), pending_bytes_max %d, heap max %d B, RSS max %d B, paused %d%n",
          pingsSent.get(),
          pongs,
          value(m, "affinitykit_gateway_pings_coalesced_total", ""),
          healthy,
          maxPending,
          PENDING_BOUND,
          pendingMax,
          maxHeap,
          maxRss,
          value(m, "affinitykit_gateway_reads_paused_total", ""));
      assertThat(healthy).isPositive();
      assertThat(pongs).isPositive();
      assertThat(value(m, "affinitykit_gateway_reads_paused_total", "")).isPositive();
      assertThat(maxPending).isLessThanOrEqualTo(PENDING_BOUND);
      assertThat(pendingMax).isLessThanOrEqualTo(HIGH + 4096L);
      assertThat(maxHeap).isLessThanOrEqualTo(64L << 20);

      p.process.toHandle().destroy(); // SIGTERM while the clients still flood

      assertThat(p.awaitExit(30)).as(p.stderr()).isEqualTo(143);
      assertThat(p.out.lines()).anyMatch(l -> l.startsWith("gateway stopped:"));
    } finally {
      for (RawWs c : clients) {
        c.close(); // unblocks the flooders' writes
      }
      flooders.shutdownNow();
      assertThat(flooders.awaitTermination(20, TimeUnit.SECONDS)).isTrue();
    }
  }

  /** Writes batches of small pings until the socket fails (the test closes it). */
  private static void flood(RawWs c, AtomicLong sent) {
    byte[] ping = RawWs.frame(RawWs.PING, true, new byte[8]);
    int perBatch = 4096;
    byte[] batch = new byte[ping.length * perBatch];
    for (int i = 0; i < perBatch; i++) {
      System.arraycopy(ping, 0, batch, i * ping.length, ping.length);
    }
    try {
      while (!Thread.currentThread().isInterrupted()) {
        c.send(batch);
        sent.addAndGet(perBatch);
      }
    } catch (IOException e) {
      // closed by the test or the server: the flood is over
    }
  }

  private static long value(Map<String, PromParser.Family> m, String name, String area) {
    PromParser.Family f = m.get(name);
    assertThat(f).as(name).isNotNull();
    return (long)
        f.samples().stream()
            .filter(s -> area.isEmpty() || area.equals(s.labels().get("area")))
            .mapToDouble(PromParser.Sample::value)
            .sum();
  }

  private static long rssBytes(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
      }
    }
    return -1;
  }
}
