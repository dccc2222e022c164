package io.github.affinitykit.netty.gateway;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cli.CommandLines;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/** Servers and clients of one test, closed together; locks in a private directory. */
final class GatewayHarness implements AutoCloseable {
  final AffinityKit kit;
  final MultiThreadIoEventLoopGroup clients =
      new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
  private final List<AutoCloseable> open = new ArrayList<>();

  /** A kit with this host's pool policy (on 2 CPUs: pool = the second CPU). */
  GatewayHarness(Path locks) {
    HostCpus host = HostCpus.probe();
    kit = AffinityKit.create(host, AffinityBackend.detect(), CpuReservations.inDirectory(locks));
  }

  /**
   * The configuration the gateway's command line {@code args} gives.
   *
   * @throws picocli.CommandLine.ParameterException naming the option, the value and the rule
   */
  static GatewayConfig config(String... args) {
    GatewayCommand command = new GatewayCommand(AffinityKit::shared);
    CommandLines.configure(new CommandLine(command)).parseArgs(args);
    return command.config();
  }

  GatewayServer start(String... args) {
    return start(GatewayEvents.NONE, args);
  }

  GatewayServer start(GatewayEvents events, String... args) {
    List<String> all = new ArrayList<>(List.of("--port", "0", "--drain-timeout", "1s"));
    all.addAll(List.of(args));
    GatewayServer s = GatewayServer.start(config(all.toArray(String[]::new)), kit, events);
    open.add(s);
    return s;
  }

  WsClient connect(GatewayServer s, String path) throws Exception {
    WsClient c = WsClient.connect(clients, s.port(), path);
    open.add(0, c);
    return c;
  }

  @Override
  public void close() {
    for (AutoCloseable c : open) {
      try {
        c.close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
    clients.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
