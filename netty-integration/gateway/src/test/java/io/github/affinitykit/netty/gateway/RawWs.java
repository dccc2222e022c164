package io.github.affinitykit.netty.gateway;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A WebSocket client on a plain socket: after the handshake it writes exactly the frames a test
 * builds and reads only when told, so it can misbehave (never read, split UTF-8, flood pings).
 */
final class RawWs implements AutoCloseable {
  static final int TEXT = 0x1;
  static final int CONTINUATION = 0x0;
  static final int PING = 0x9;

  final Socket socket;
  final InputStream in;
  final OutputStream out;

  private RawWs(Socket socket) throws IOException {
    this.socket = socket;
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
  }

  /** Connects with a receive buffer of {@code receiveBuffer} bytes and completes the handshake. */
  static RawWs open(int port, String path, int receiveBuffer) throws IOException {
    Socket s = new Socket();
    s.setReceiveBufferSize(receiveBuffer); // before connect: it sets the window
    s.setSoTimeout(20_000);
    s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 20_000);
    RawWs ws = new RawWs(s);
    ws.out.write(
        ("GET "
                + path
                + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            .getBytes(StandardCharsets.ISO_8859_1));
    String head = ws.readHead();
    if (!head.startsWith("HTTP/1.1 101")) {
      ws.close();
      throw new IOException("handshake: " + head);
    }
    return ws;
  }

  private String readHead() throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        break;
      }
      head.write(b);
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  /** A masked client frame (payload under 64 KiB). */
  static byte[] frame(int opcode, boolean fin, byte[] payload) {
    ByteArrayOutputStream f = new ByteArrayOutputStream();
    f.write((fin ? 0x80 : 0) | opcode);
    if (payload.length < 126) {
      f.write(0x80 | payload.length);
    } else {
      f.write(0x80 | 126);
      f.write(payload.length >>> 8);
      f.write(payload.length & 0xff);
    }
    byte[] mask = {0x11, 0x22, 0x33, 0x44};
    f.writeBytes(mask);
    for (int i = 0; i < payload.length; i++) {
      f.write(payload[i] ^ mask[i % 4]);
    }
    return f.toByteArray();
  }

  void send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Reads one unmasked server frame's head: {opcode, payload length}, or null at end of stream. */
  int[] readFrameHead() throws IOException {
    int b0 = in.read();
    if (b0 < 0) {
      return null;
    }
    int len = in.read() & 0x7f;
    if (len == 126) {
      len = (in.read() << 8) | in.read();
    }
    return new int[] {b0 & 0x0f, len};
  }

  byte[] readPayload(int len) throws IOException {
    return in.readNBytes(len);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
