package io.github.affinitykit.agent;

import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A Reactor Netty HTTP server written with Reactor Netty's API alone, knowing nothing of the agent
 * ({@link ServicesIT} runs it under the agent): {@code GET /hello} answers {@code hello from <event
 * loop's thread name>}. Its one argument is the port ({@code 0}: any free one); it prints {@code
 * listening on <port>} once bound, and runs until killed.
 */
public final class HelloReactor {
  private HelloReactor() {}

  public static void main(String[] args) {
    DisposableServer server =
        HttpServer.create()
            .host("127.0.0.1")
            .port(Integer.parseInt(args[0]))
            .route(
                routes ->
                    routes.get(
                        "/hello",
                        (request, response) ->
                            response.sendString(
                                Mono.fromSupplier(
                                    () -> "hello from " + Thread.currentThread().getName()))))
            .bindNow();
    System.out.println("listening on " + server.port());
    server.onDispose().block();
  }
}
