package io.github.affinitykit.spring;

import io.github.affinitykit.reactor.PinnedLoopResources;
import java.util.Objects;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;

/**
 * Runs the WebFlux server on pinned loops: adds a server customizer to Spring Boot's {@link
 * NettyReactiveWebServerFactory} that sets the {@code HttpServer}'s loop resources ({@code runOn}),
 * after Boot's own ({@code ReactorResourceFactory}'s), so these win.
 *
 * <p>Thread safety: immutable; Spring calls it while it creates the web server.
 */
public final class PinnedServerCustomizer
    implements WebServerFactoryCustomizer<NettyReactiveWebServerFactory> {
  private final PinnedLoopResources loops;

  /**
   * Runs the server on {@code loops}.
   *
   * @param loops the pinned loops; not null
   */
  public PinnedServerCustomizer(PinnedLoopResources loops) {
    this.loops = Objects.requireNonNull(loops, "loops");
  }

  /** Adds the server customizer that sets the loops; clears the factory's resource factory. */
  @Override
  public void customize(NettyReactiveWebServerFactory factory) {
    factory.setResourceFactory(null);
    factory.addServerCustomizers(server -> server.runOn(loops));
  }
}
