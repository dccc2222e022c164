package io.github.affinitykit.core.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A Reactor Netty HTTP server as its own documentation writes one, nothing of Affinity Kit in it:
 * {@code GET /} answers the name of the thread that served it. {@link AttachIT} pins its event
 * loops with {@code pin --pid}. Prints {@code port <n>}; stops on a line on stdin.
 */
public final class ReactorServerMain {
  private ReactorServerMain() {}

  public static void main(String[] args) throws Exception {
    DisposableServer server =
        HttpServer.create()
            .host("127.0.0.1")
            .port(0)
            .route(
                routes ->
                    routes.get(
                        "/",
                        (request, response) ->
                            response.sendString(
                                Mono.fromSupplier(() -> Thread.currentThread().getName()))))
            .bindNow();
    System.out.println("port " + server.port());
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    server.disposeNow();
  }
}
