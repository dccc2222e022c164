package io.github.affinitykit.spring;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/** A minimal WebFlux application: {@code GET /thread} answers the serving thread's name. */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
class WebFluxApp {
  @Bean
  RouterFunction<ServerResponse> routes() {
    return RouterFunctions.route()
        .GET("/thread", req -> ServerResponse.ok().bodyValue(Thread.currentThread().getName()))
        .build();
  }
}
