package io.github.affinitykit.bench.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The soak's short-lived clients, one cycle each: the well-behaved (a connection that pings, echoes
 * and closes; two room members that see one broadcast) and the hostile kinds. A well-behaved cycle
 * that misses an echo, a pong or a broadcast, or whose close is not answered, counts as lost; a
 * hostile cycle counts whether the gateway answered as it should (the close code its kind calls
 * for, or nothing to answer).
 *
 * <p>Thread safety: the cycles may run on any threads at once; the counters are atomic.
 */
final class SoakClients {
  /** How long a client waits for a frame before it counts the cycle lost. */
  static final int TIMEOUT_MS = 10_000;

  /** The hostile clients, in the order the soak takes turns. */
  enum Hostile {
    /** Sends 2,000 messages of 1 KiB on a 4 KiB receive window and never reads, 2 s long. */
    NON_READING,
    /**
     * Sends its handshake a byte every 100 ms for 12 s (the gateway's request timeout: 10 s):
     * expects 408 and the end of the connection.
     */
    SLOWLORIS,
    /** Declares a 1 MiB message (the limit: 64 KiB) and writes 128 KiB of it: expects 1009. */
    OVERSIZE,
    /** Sends a frame with the reserved opcode 0x3: expects 1002. */
    BAD_FRAME,
    /** Sends a message and resets the connection (SO_LINGER 0) without reading the echo. */
    RESET
  }

  private final int port;
  private final AtomicLong seq = new AtomicLong();
  private final LongAdder cycles = new LongAdder();
  private final LongAdder echoes = new LongAdder();
  private final LongAdder lost = new LongAdder();
  private final LongAdder broadcasts = new LongAdder();
  private final Map<Hostile, LongAdder> hostile = new EnumMap<>(Hostile.class);
  private final Map<Hostile, LongAdder> answered = new EnumMap<>(Hostile.class);
  private volatile String lastLoss = "";

  SoakClients(int port) {
    this.port = port;
    for (Hostile h : Hostile.values()) {
      hostile.put(h, new LongAdder());
      answered.put(h, new LongAdder());
    }
  }

  /** One well-behaved connection: ping, 3 echoes in order, close 1000 answered. */
  void echoCycle() {
    cycles.increment();
    long n = seq.incrementAndGet();
    try (SoakSocket ws = SoakSocket.open(port, "/ws", TIMEOUT_MS)) {
      ws.send(SoakSocket.PING, ("p" + n).getBytes(StandardCharsets.UTF_8));
      for (int i = 0; i < 3; i++) {
        ws.send(SoakSocket.TEXT, ("c" + n + "-" + i).getBytes(StandardCharsets.UTF_8));
      }
      int next = 0;
      boolean pong = false;
      while (next < 3 || !pong) {
        SoakSocket.Frame f = ws.read();
        if (f == null || f.opcode() == SoakSocket.CLOSE) {
          loss("echo cycle " + n + ": closed after " + next + " echoes, pong " + pong);
          return;
        }
        if (f.opcode() == SoakSocket.PONG) {
          pong = true;
        } else if (f.text().equals("c" + n + "-" + next)) {
          next++;
          echoes.increment();
        } else {
          loss("echo cycle " + n + ": got " + f.text() + " (expected: c" + n + "-" + next + ")");
          return;
        }
      }
      closeAnswered(ws, "echo cycle " + n);
    } catch (IOException e) {
      loss("echo cycle " + n + ": " + e);
    }
  }

  /** Two room members; one broadcasts, both must see it (among others' broadcasts), then close. */
  void roomCycle() {
    cycles.increment();
    long n = seq.incrementAndGet();
    try (SoakSocket a = SoakSocket.open(port, "/room", TIMEOUT_MS);
        SoakSocket b = SoakSocket.open(port, "/room", TIMEOUT_MS)) {
      String msg = "r" + n;
      a.send(SoakSocket.TEXT, msg.getBytes(StandardCharsets.UTF_8));
      if (sees(a, msg) && sees(b, msg)) {
        broadcasts.increment();
        closeAnswered(a, "room cycle " + n);
        closeAnswered(b, "room cycle " + n);
      } else {
        loss("room cycle " + n + ": " + msg + " not seen by both members");
      }
    } catch (IOException e) {
      loss("room cycle " + n + ": " + e);
    }
  }

  private static boolean sees(SoakSocket ws, String msg) throws IOException {
    for (SoakSocket.Frame f = ws.read(); f != null; f = ws.read()) {
      if (f.opcode() == SoakSocket.CLOSE) {
        return false;
      }
      if (f.opcode() == SoakSocket.TEXT && f.text().equals(msg)) {
        return true;
      }
    }
    return false;
  }

  /** Sends close 1000 and reads on to the gateway's close frame (others' frames may come first). */
  private void closeAnswered(SoakSocket ws, String what) throws IOException {
    ws.send(SoakSocket.CLOSE, new byte[] {0x03, (byte) 0xE8});
    for (SoakSocket.Frame f = ws.read(); f != null; f = ws.read()) {
      if (f.opcode() == SoakSocket.CLOSE) {
        if (f.closeCode() != 1000) {
          loss(what + ": close answered with " + f.closeCode() + " (expected: 1000)");
        }
        return;
      }
    }
    loss(what + ": the close was not answered with a close frame");
  }

  private void loss(String why) {
    lost.increment();
    lastLoss = why;
  }

  /** One hostile cycle of kind {@code h}. */
  void hostileCycle(Hostile h) {
    hostile.get(h).increment();
    try {
      boolean ok =
          switch (h) {
            case NON_READING -> nonReading();
            case SLOWLORIS -> slowloris();
            case OVERSIZE -> oversize();
            case BAD_FRAME -> badFrame();
            case RESET -> reset();
          };
      if (ok) {
        answered.get(h).increment();
      }
    } catch (IOException e) {
      // a hostile client may be cut off in any way: what counts is that the gateway holds
    }
  }

  private boolean nonReading() throws IOException {
    try (SoakSocket ws = SoakSocket.connect(port, TIMEOUT_MS, 4096)) {
      ws.write(SoakSocket.handshake("/ws"));
      byte[] kib = new byte[1024];
      for (int i = 0; i < 2_000; i++) {
        ws.send(SoakSocket.BINARY, kib);
      }
      LockSupport.parkNanos(2_000_000_000L);
      return true;
    }
  }

  private boolean slowloris() throws IOException {
    try (SoakSocket ws = SoakSocket.connect(port, TIMEOUT_MS, 0)) {
      byte[] hs = SoakSocket.handshake("/ws");
      for (int i = 0; i < 120 && i < hs.length - 1; i++) {
        ws.write(new byte[] {hs[i]});
        LockSupport.parkNanos(100_000_000L);
      }
      return ws.readToEnd().startsWith("HTTP/1.1 408"); // then the gateway closes
    }
  }

  private boolean oversize() throws IOException {
    try (SoakSocket ws = SoakSocket.open(port, "/ws", TIMEOUT_MS)) {
      ws.write(SoakSocket.header(SoakSocket.BINARY, 1 << 20));
      ws.write(new byte[] {1, 2, 3, 4}); // mask
      ws.write(new byte[128 * 1024]);
      return closeCode(ws) == 1009;
    }
  }

  private boolean badFrame() throws IOException {
    try (SoakSocket ws = SoakSocket.open(port, "/ws", TIMEOUT_MS)) {
      ws.send(0x3, new byte[] {1}); // a reserved opcode
      return closeCode(ws) == 1002;
    }
  }

  /** The code of the gateway's close frame, -2 if the stream ended without one. */
  private static int closeCode(SoakSocket ws) throws IOException {
    for (SoakSocket.Frame f = ws.read(); f != null; f = ws.read()) {
      if (f.opcode() == SoakSocket.CLOSE) {
        return f.closeCode();
      }
    }
    return -2;
  }

  private boolean reset() throws IOException {
    SoakSocket ws = SoakSocket.open(port, "/ws", TIMEOUT_MS);
    ws.send(SoakSocket.TEXT, "bye".getBytes(StandardCharsets.UTF_8));
    ws.reset();
    return true;
  }

  /** {@return the well-behaved cycles run} */
  long cycles() {
    return cycles.sum();
  }

  /** {@return the echoes the well-behaved cycles received} */
  long echoes() {
    return echoes.sum();
  }

  /** {@return the broadcasts both room members saw} */
  long broadcasts() {
    return broadcasts.sum();
  }

  /** {@return the well-behaved cycles that lost an echo, a pong, a broadcast or their close} */
  long lost() {
    return lost.sum();
  }

  /** {@return why the latest lost cycle counted, empty if none} */
  String lastLoss() {
    return lastLoss;
  }

  /** {@return hostile cycles run, by kind} */
  Map<Hostile, Long> hostile() {
    return sums(hostile);
  }

  /** {@return hostile cycles the gateway answered as their kind calls for, by kind} */
  Map<Hostile, Long> answered() {
    return sums(answered);
  }

  private static Map<Hostile, Long> sums(Map<Hostile, LongAdder> m) {
    Map<Hostile, Long> out = new EnumMap<>(Hostile.class);
    m.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }
}
