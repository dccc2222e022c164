package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.isolation.IsolationJournal;
import io.github.affinitykit.isolation.Isolator;
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
 * The gateway with {@code --pin isolated} driven out of heap by clients within its limits (a 32 MiB
 * heap, heap buffers, 4 connections each holding an unfinished 12 MiB message under {@code
 * --max-frame-bytes} 16 MiB): it puts its isolation back before it halts (within {@code
 * --restore-timeout}: 120 s here, where a first run found 5 s too short under TCG). The machine is
 * read before, while isolated and after, for the host to compare field by field. (A SIGKILL leaves
 * the journal instead: the crash and recover runs show {@code release} undoing it.)
 *
 * <p>Thread safety: a section; runs on the guest program's main thread.
 */
final class GatewayFatalSection {
  private static final int OUTPUT = 6000;
  private static final int PORT = 8081;
  private static final int CONNECTIONS = 4;
  private static final int MESSAGE_MIB = 12;

  private GatewayFatalSection() {}

  static void run(ObjectNode data, PrintStream log) throws Exception {
    data.set("before", MachineState.read());
    try (Child gw =
        Child.start("gateway-oom", gateway("-Xmx32m", "-Dio.netty.noPreferDirect=true"))) {
      boolean up = EchoClient.awaitHealth(PORT, 300);
      data.put("healthy", up);
      if (up) {
        data.set("during", MachineState.read());
        data.put("exhaust", exhaust(PORT));
      }
      data.put("exit", gw.await(180));
      data.put("output", gw.output(OUTPUT));
      log.println(gw.output(OUTPUT));
    }
    data.set("after", MachineState.read());
    data.set("journalsLeft", journals());
  }

  /** The gateway jar with {@code jvm} options, isolating its one worker loop. */
  private static List<String> gateway(String... jvm) {
    List<String> cmd = new ArrayList<>(Child.java(jvm));
    cmd.addAll(
        List.of(
            "-Djava.io.tmpdir=/tmp",
            "-jar",
            System.getProperty("kernel.gatewayJar"),
            "--port",
            String.valueOf(PORT),
            "--pin",
            "isolated",
            "--workers",
            "1",
            "--watchdog",
            "0s",
            "--max-frame-bytes",
            String.valueOf(16 << 20),
            "--drain-timeout",
            "1s",
            "--restore-timeout",
            "120s")); // the 5 s default is for hardware: TCG runs this guest tens of times slower
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
