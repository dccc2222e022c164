package io.github.affinitykit.netty.gateway;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import java.util.List;

/**
 * Netty's WebSocket server protocol handler (handshake, close handshake, pong dropping), with three
 * changes:
 *
 * <ul>
 *   <li>pings go on to {@link WsHandler}: Netty answers every ping at once, whether the client
 *       reads or not, so a client that sends pings and never reads would make the server queue
 *       pongs without bound. {@link WsFlow} answers them within the connection's outbound limit
 *       instead;
 *   <li>a protocol violation (Netty's decoder and UTF-8 validator are configured not to close) goes
 *       on to {@link WsHandler} without closing the connection here: it sends the close frame the
 *       violation calls for, even when the violation is in the client's own close frame (Netty
 *       would close the TCP connection without one), then reads on until the client closes;
 *   <li>a close frame whose status code RFC 6455 §7.4 does not allow in a frame (Netty accepts 5000
 *       and above) is a protocol error too, not echoed.
 * </ul>
 *
 * <p>Thread safety: one instance per channel, called by the channel's loop.
 */
final class WsProtocolHandler extends WebSocketServerProtocolHandler {
  WsProtocolHandler(WebSocketServerProtocolConfig config) {
    super(config);
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, WebSocketFrame frame, List<Object> out)
      throws Exception {
    if (frame instanceof PingWebSocketFrame) {
      out.add(frame.retain()); // the decoder releases its own reference after this
    } else if (frame instanceof CloseWebSocketFrame close && !isAllowed(close.statusCode())) {
      ctx.fireExceptionCaught(
          new CorruptedWebSocketFrameException(
              WebSocketCloseStatus.PROTOCOL_ERROR,
              "close code: "
                  + close.statusCode()
                  + " (expected: 1000-1003, 1007-1014 or 3000-4999)"));
    } else {
      super.decode(ctx, frame, out);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
    if (cause instanceof CorruptedWebSocketFrameException) {
      ctx.fireExceptionCaught(cause); // WsHandler closes with the frame it calls for
    } else {
      super.exceptionCaught(ctx, cause);
    }
  }

  /**
   * Whether a close frame may carry {@code code} (RFC 6455 §7.4.1-2 and IANA's registry): -1 (no
   * code), 1000-1003, 1007-1014 (1004-1006 and 1015 are reserved, never sent), 3000-4999
   * (libraries, applications); everything else is undefined.
   */
  static boolean isAllowed(int code) {
    return code == -1
        || (code >= 1000 && code <= 1003)
        || (code >= 1007 && code <= 1014)
        || (code >= 3000 && code <= 4999);
  }
}
