package io.github.affinitykit.spring;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * A minimal WebFlux application: {@code GET /mask} answers the serving thread's allowed CPUs, as
 * the kernel lists them in {@code /proc/thread-self/status}.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
class WebFluxApp {
  @Bean
  RouterFunction<ServerResponse> routes() {
    return RouterFunctions.route()
        .GET("/mask", req -> ServerResponse.ok().bodyValue(mask()))
        .build();
  }

  /** The calling thread's Cpus_allowed_list. */
  static String mask() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
        if (line.startsWith("Cpus_allowed_list:")) {
          return line.substring(line.indexOf(':') + 1).strip();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalStateException("no Cpus_allowed_list in /proc/thread-self/status");
  }
}
