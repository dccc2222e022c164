package io.github.affinitykit.netty.gateway;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import java.util.List;

/**
 * Netty's WebSocket server protocol handler (handshake, close handshake, pong dropping), except
 * that pings go on to {@link WsHandler}: Netty answers every ping at once, whether the client reads
 * or not, so a client that sends pings and never reads would make the server queue pongs without
 * bound. {@link WsFlow} answers them within the connection's outbound limit instead.
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
    } else {
      super.decode(ctx, frame, out);
    }
  }
}
