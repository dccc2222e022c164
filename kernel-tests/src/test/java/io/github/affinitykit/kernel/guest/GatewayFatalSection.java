package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.affinitykit.core.isolation.IsolationJournal;
import io.github.affinitykit.core.isolation.Isolator;
import io.github.affinitykit.core.os.AffinityBackend;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The gateway with {@code --pin isolated} dying both ways a production gateway dies: killed with
 * SIGKILL (as the kernel's OOM killer does), its isolation left to the journal, which the next
 * gateway's start undoes; then that gateway driven out of heap by clients within its limits (a 48
 * MiB heap, heap buffers, 8 connections each holding an unfinished 15 MiB message under {@code
 * --max-frame-bytes} 16 MiB), which puts its isolation back before it halts. The machine is read
 * before, while isolated and after, for the host to compare field by field.
 *
 * <p>Thread safety: a section; runs on the guest program's main thread.
 */
final class GatewayFatalSection {
  private static final int OUTPUT = 6000;
  private static final int CONNECTIONS = 8;
  private static final int MESSAGE_MIB = 15;

  private GatewayFatalSection() {}

  static void run(ObjectNode data, PrintStream log) throws Exception {
    data.set("before", MachineState.read());
    try (Child first = Child.start("gateway-killed", gateway(8081, "-Xmx128m"))) {
      data.put("firstHealthy", EchoClient.awaitHealth(8081, 300));
      data.set("during", MachineState.read());
      first.close(); // SIGKILL, as the OOM killer
      data.put("firstOutput", first.output(OUTPUT));
      log.println(first.output(OUTPUT));
    }
    data.set("journalsAfterKill", journals());
    try (Child second =
        Child.start("gateway-oom", gateway(8082, "-Xmx48m", "-Dio.netty.noPreferDirect=true"))) {
      boolean up = EchoClient.awaitHealth(8082, 300);
      data.put("secondHealthy", up);
      if (up) {
        data.put("exhaust", exhaust(8082));
      }
      data.put("secondExit", second.await(180));
      data.put("secondOutput", second.output(OUTPUT));
      log.println(second.output(OUTPUT));
    }
    data.set("after", MachineState.read());
    data.set("journalsLeft", journals());
  }

  /** The gateway jar with {@code jvm} options, isolating its one worker loop. */
  private static List<String> gateway(int port, String... jvm) {
    List<String> cmd = new ArrayList<>(Child.java(jvm));
    cmd.addAll(
        List.of(
            "-Djava.io.tmpdir=/tmp",
            "-jar",
            System.getProperty("kernel.gatewayJar"),
            "--port",
            String.valueOf(port),
            "--pin",
            "isolated",
            "--workers",
            "1",
            "--watchdog",
            "0s",
            "--max-frame-bytes",
            String.valueOf(16 << 20),
            "--drain-timeout",
            "1s"));
    return cmd;
  }

  /**
   * Opens the connections and sends each an unfinished binary message, a MiB at a time, until the
   * gateway stops reading or closes them: what was sent, and why it stopped.
   */
  private static String exhaust(int port) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    List<WebSocket> sockets = new ArrayList<>();
    for (int c = 0; c < CONNECTIONS; c++) {
      sockets.add(
          http.newWebSocketBuilder()
              .buildAsync(URI.create("ws://127.0.0.1:" + port + "/ws"), new WebSocket.Listener() {})
              .get(60, TimeUnit.SECONDS));
    }
    ByteBuffer mib = ByteBuffer.allocate(1 << 20);
    long sent = 0;
    try {
      for (int m = 0; m < MESSAGE_MIB; m++) {
        for (WebSocket ws : sockets) {
          ws.sendBinary(mib.duplicate(), false).get(60, TimeUnit.SECONDS);
          sent++;
        }
      }
    } catch (ExecutionException | TimeoutException e) {
      return sent + " MiB sent, then " + e;
    }
    return sent + " MiB sent, all";
  }

  private static com.fasterxml.jackson.databind.node.ArrayNode journals() {
    var out = GuestMain.JSON.createArrayNode();
    for (IsolationJournal j : Isolator.live(AffinityBackend.detect()).journals()) {
      out.addObject().put("owner", j.owner().name()).put("describe", j.describe());
    }
    return out;
  }
}
