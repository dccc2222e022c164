package io.github.affinitykit.spring;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.micrometer.AffinityMeterBinder;
import io.github.affinitykit.reactor.PinnedLoopResources;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import reactor.netty.http.server.HttpServer;

/**
 * Pins the event loops of a Spring WebFlux application's Reactor Netty server: the server factory
 * ({@link NettyReactiveWebServerFactory}) is customized to run on {@link PinnedLoopResources} built
 * from {@code affinitykit.netty.*} ({@link AffinityNettyProperties}) on the application's {@link
 * AffinityKit} bean, or {@link AffinityKit#shared()}. With Micrometer, the kit's meters ({@link
 * AffinityMeterBinder}); with Actuator, the report at {@code /actuator/affinity} ({@link
 * AffinityEndpoint}, exposed as any endpoint: {@code management.endpoints.web.exposure.include}).
 *
 * <p>Backs off when {@code affinitykit.netty.enabled=false}, when the application is not a reactive
 * web application on Reactor Netty, and where this host cannot pin threads: there it logs one line
 * and configures nothing ({@link PinnableHost}). Each bean backs off when the application defines
 * its own.
 *
 * <p>Thread safety: Spring calls it on the thread that refreshes the context.
 */
@AutoConfiguration
@ConditionalOnClass({HttpServer.class, NettyReactiveWebServerFactory.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnBooleanProperty(name = "affinitykit.netty.enabled", matchIfMissing = true)
@Conditional(PinnableHost.class)
@EnableConfigurationProperties(AffinityNettyProperties.class)
public final class AffinityNettyAutoConfiguration {
  /** Spring's. */
  public AffinityNettyAutoConfiguration() {}

  /**
   * The kit the loops are pinned with, unless the application defines one.
   *
   * @return the JVM-wide kit (Spring never closes it)
   */
  @Bean(destroyMethod = "")
  @ConditionalOnMissingBean
  public AffinityKit affinityKit() {
    return AffinityKit.shared();
  }

  /**
   * The server's loops, pinned and started; closed (every CPU freed) when the context closes.
   *
   * @param kit the kit to pin with
   * @param properties {@code affinitykit.netty.*}
   * @return the loops of the server
   */
  @Bean
  @ConditionalOnMissingBean
  public PinnedLoopResources affinityLoopResources(
      AffinityKit kit, AffinityNettyProperties properties) {
    return ServerLoops.create(kit, properties);
  }

  /**
   * Runs the Reactor Netty server on {@code loops}.
   *
   * @param loops the pinned loops
   * @return the customizer of the server factory
   */
  @Bean
  public PinnedServerCustomizer affinityNettyServerCustomizer(PinnedLoopResources loops) {
    return new PinnedServerCustomizer(loops);
  }

  /** The kit's meters, where the application has Micrometer. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(MeterRegistry.class)
  static class Meters {
    /**
     * The kit's meters, the loops' watchdog's counters with them; Spring Boot binds it to every
     * registry.
     */
    @Bean
    @ConditionalOnMissingBean
    AffinityMeterBinder affinityMeterBinder(AffinityKit kit, PinnedLoopResources loops) {
      AffinityMeterBinder.Builder meters = AffinityMeterBinder.builder(kit);
      loops.watchdog().ifPresent(meters::watchdog);
      return meters.build();
    }
  }

  /** The report as an Actuator endpoint, where the application has Actuator. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(Endpoint.class)
  static class Report {
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(AffinityEndpoint.class)
    AffinityEndpoint affinityEndpoint(
        PinnedLoopResources loops,
        org.springframework.beans.factory.ObjectProvider<AffinityMeterBinder> meters) {
      return new AffinityEndpoint(loops, () -> meters.ifAvailable(AffinityMeterBinder::refresh));
    }
  }
}
