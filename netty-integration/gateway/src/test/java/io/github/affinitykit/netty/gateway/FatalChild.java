package io.github.affinitykit.netty.gateway;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;

/**
 * A child JVM for {@link GatewayFatalErrorIT}: installs {@link GatewayMain}'s uncaught-exception
 * handler, then lets a handler in front of the gateway's {@code HttpRouter} (args[0] = {@code
 * http}) or {@code WsHandler} ({@code ws}) throw an {@link OutOfMemoryError}, as an allocation
 * inside the pipeline would. Returning normally (status 0) means the error was swallowed.
 */
final class FatalChild {
  private FatalChild() {}

  public static void main(String[] args) {
    GatewayMain.installFatalHandler();
    GatewayMetrics metrics = new GatewayMetrics();
    GatewayContext g = EmbeddedGateway.context(GatewayConfig.DEFAULTS, metrics);
    EmbeddedChannel ch =
        new EmbeddedChannel(
            new ChannelInboundHandlerAdapter() {
              @Override
              public void channelRead(ChannelHandlerContext ctx, Object msg) {
                throw new OutOfMemoryError("simulated: Java heap space");
              }
            });
    ch.pipeline()
        .addLast("http".equals(args[0]) ? new HttpRouter(g, false) : new WsHandler(g, false));
    ch.writeInbound("anything");
    System.out.println("swallowed");
  }
}
