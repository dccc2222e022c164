package io.github.affinitykit.bench.load;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A blocking WebSocket client on a plain socket, for the soak's short-lived clients: well-behaved
 * ones (ping, echo, broadcast, close) and hostile ones, which write exactly the bytes they mean to
 * (a handshake a byte at a time, a frame bigger than the limit, a reserved opcode, a reset).
 *
 * <p>Thread safety: one thread per socket.
 */
final class SoakSocket implements AutoCloseable {
  static final int TEXT = 0x1;
  static final int BINARY = 0x2;
  static final int CLOSE = 0x8;
  static final int PING = 0x9;
  static final int PONG = 0xA;

  /** A frame the server sent; {@link #closeCode()} is -1 for a close frame without one. */
  record Frame(int opcode, byte[] payload) {
    int closeCode() {
      return payload.length < 2 ? -1 : ((payload[0] & 0xff) << 8) | (payload[1] & 0xff);
    }

    String text() {
      return new String(payload, StandardCharsets.UTF_8);
    }
  }

  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;

  private SoakSocket(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new DataInputStream(socket.getInputStream());
    this.out = socket.getOutputStream();
  }

  /** Connects to {@code 127.0.0.1:port}, reads time out after {@code timeoutMs}; no handshake. */
  static SoakSocket connect(int port, int timeoutMs, int receiveBuffer) throws IOException {
    Socket s = new Socket();
    try {
      if (receiveBuffer > 0) {
        s.setReceiveBufferSize(receiveBuffer); // before connect: it sets the window
      }
      s.setSoTimeout(timeoutMs);
      s.setTcpNoDelay(true);
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), timeoutMs);
      return new SoakSocket(s);
    } catch (IOException e) {
      s.close();
      throw e;
    }
  }

  /** Connects and completes the WebSocket handshake on {@code path}. */
  static SoakSocket open(int port, String path, int timeoutMs) throws IOException {
    SoakSocket ws = connect(port, timeoutMs, 0);
    try {
      ws.write(handshake(path));
      String head = ws.readHead();
      if (!head.startsWith("HTTP/1.1 101")) {
        throw new IOException("handshake on " + path + ": " + head.lines().findFirst().orElse(""));
      }
      return ws;
    } catch (IOException e) {
      ws.close();
      throw e;
    }
  }

  /** The handshake request's bytes. */
  static byte[] handshake(String path) {
    return ("GET "
            + path
            + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        .getBytes(StandardCharsets.ISO_8859_1);
  }

  private String readHead() throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("handshake: the server closed before its response ended");
      }
      head.write(b);
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  /** Writes {@code bytes} as they are. */
  void write(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Sends one masked, final frame. */
  void send(int opcode, byte[] payload) throws IOException {
    ByteArrayOutputStream f = new ByteArrayOutputStream(payload.length + 14);
    f.writeBytes(header(opcode, payload.length));
    byte[] mask = new byte[4];
    ThreadLocalRandom.current().nextBytes(mask);
    f.writeBytes(mask);
    for (int i = 0; i < payload.length; i++) {
      f.write(payload[i] ^ mask[i & 3]);
    }
    write(f.toByteArray());
  }

  /** A final frame's header declaring {@code length} bytes, mask bit set (the mask follows). */
  static byte[] header(int opcode, long length) {
    ByteArrayOutputStream h = new ByteArrayOutputStream(10);
    h.write(0x80 | opcode);
    if (length < 126) {
      h.write(0x80 | (int) length);
    } else if (length < 65536) {
      h.write(0x80 | 126);
      h.write((int) (length >>> 8) & 0xff);
      h.write((int) length & 0xff);
    } else {
      h.write(0x80 | 127);
      for (int shift = 56; shift >= 0; shift -= 8) {
        h.write((int) (length >>> shift) & 0xff);
      }
    }
    return h.toByteArray();
  }

  /** Reads the next server frame (unmasked, final), or null when the server closed the stream. */
  Frame read() throws IOException {
    int b0 = in.read();
    if (b0 < 0) {
      return null;
    }
    int b1 = in.readUnsignedByte();
    long len = b1 & 0x7f;
    if (len == 126) {
      len = in.readUnsignedShort();
    } else if (len == 127) {
      len = in.readLong();
    }
    if (len > 1 << 20) {
      throw new IOException(
          "frame of " + len + " bytes (expected: at most 1 MiB from the gateway)");
    }
    byte[] payload = new byte[(int) len];
    in.readFully(payload);
    return new Frame(b0 & 0x0f, payload);
  }

  /** Reads what the server still sends until it closes (or the read times out), as Latin-1. */
  String readToEnd() throws IOException {
    return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
  }

  /** Closes with a reset (SO_LINGER 0) instead of a FIN. */
  void reset() throws IOException {
    socket.setSoLinger(true, 0);
    socket.close();
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing a socket that failed: nothing left to release
    }
  }
}
