package io.github.affinitykit.netty.gateway;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Raw HTTP/1.1 over a loopback socket: exactly the bytes a test wants to send. */
final class Http {
  /** A response: status code, head and body. */
  record Response(int status, String head, String body) {}

  private Http() {}

  static Response get(int port, String path) throws IOException {
    return raw(port, "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  }

  /** Sends {@code request} as is, reads until the server closes. */
  static Response raw(int port, String request) throws IOException {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      s.setSoTimeout(20_000);
      s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      s.getOutputStream().flush();
      InputStream in = s.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      in.transferTo(all);
      String text = all.toString(StandardCharsets.UTF_8);
      int split = text.indexOf("\r\n\r\n");
      String head = split < 0 ? text : text.substring(0, split);
      String body = split < 0 ? "" : text.substring(split + 4);
      int status = Integer.parseInt(head.split(" ", 3)[1]);
      return new Response(status, head, body);
    }
  }
}
