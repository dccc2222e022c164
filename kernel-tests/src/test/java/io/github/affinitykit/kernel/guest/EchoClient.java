package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A WebSocket echo client on the JDK's {@code java.net.http}: N connections, each sending M
 * numbered text messages and checking that the replies come back complete and in order.
 *
 * <p>Thread safety: a helper of the gateway section; one call at a time.
 */
final class EchoClient {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private EchoClient() {}

  /** Polls {@code /health} until it answers 200 or {@code seconds} pass. */
  static boolean awaitHealth(int port, int seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      try {
        HttpResponse<String> r =
            HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                    .timeout(Duration.ofSeconds(5))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return true;
        }
      } catch (IOException e) {
        // not up yet
      }
      TimeUnit.MILLISECONDS.sleep(500); // polling a child process: no latch to wait on
    }
    return false;
  }

  /** GETs {@code path} and returns the body. */
  static String get(int port, String path) throws IOException, InterruptedException {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /** Runs {@code connections} × {@code messages} and reports sent, received, lost, out of order. */
  static void run(int port, int connections, int messages, ObjectNode into) throws Exception {
    CountDownLatch done = new CountDownLatch(connections);
    List<Listener> listeners = new ArrayList<>();
    List<WebSocket> sockets = new ArrayList<>();
    for (int c = 0; c < connections; c++) {
      Listener l = new Listener(messages, done);
      listeners.add(l);
      sockets.add(
          HTTP.newWebSocketBuilder()
              .buildAsync(URI.create("ws://127.0.0.1:" + port + "/ws"), l)
              .get(60, TimeUnit.SECONDS));
    }
    for (int m = 0; m < messages; m++) {
      for (int c = 0; c < connections; c++) {
        sockets.get(c).sendText(c + ":" + m, true).get(30, TimeUnit.SECONDS);
      }
    }
    boolean all = done.await(120, TimeUnit.SECONDS);
    long received = 0;
    long outOfOrder = 0;
    for (Listener l : listeners) {
      synchronized (l) {
        received += l.received.size();
        for (int i = 0; i < l.received.size(); i++) {
          if (!l.received.get(i).endsWith(":" + i)) {
            outOfOrder++;
          }
        }
      }
    }
    for (WebSocket s : sockets) {
      s.sendClose(WebSocket.NORMAL_CLOSURE, "done");
    }
    into.put("connections", connections)
        .put("messages", messages)
        .put("sent", (long) connections * messages)
        .put("received", received)
        .put("lost", (long) connections * messages - received)
        .put("outOfOrder", outOfOrder)
        .put("allArrived", all);
  }

  /** Collects one connection's replies. */
  private static final class Listener implements WebSocket.Listener {
    private final int expected;
    private final CountDownLatch done;
    private final List<String> received = new ArrayList<>();
    private final StringBuilder partial = new StringBuilder();

    Listener(int expected, CountDownLatch done) {
      this.expected = expected;
      this.done = done;
    }

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      synchronized (this) {
        partial.append(data);
        if (last) {
          received.add(partial.toString());
          partial.setLength(0);
          if (received.size() == expected) {
            done.countDown();
          }
        }
      }
      ws.request(1);
      return null;
    }
  }
}
