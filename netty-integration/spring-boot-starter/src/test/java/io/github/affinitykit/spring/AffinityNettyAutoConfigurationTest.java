package io.github.affinitykit.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.testkit.ThreadMasks;
import io.github.affinitykit.micrometer.AffinityMeterBinder;
import io.github.affinitykit.netty.LoopAssignment;
import io.github.affinitykit.netty.WaitPolicy;
import io.github.affinitykit.reactor.PinnedLoopResources;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A minimal Spring Boot 4 WebFlux application started with the starter on its class path: answered
 * over HTTP by the pinned worker (the answer is the serving thread's name), every loop's kernel
 * mask read back from {@code /proc/self/task}, the kit's meters in Micrometer, the report at {@code
 * /actuator/affinity}, every CPU free once the context closes.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(120)
class AffinityNettyAutoConfigurationTest {
  private AffinityKit kit;

  @BeforeEach
  void setUp() throws Exception {
    Files.createDirectories(Path.of(System.getProperty("affinitykit.lock.dir")));
    kit = AffinityKit.shared();
    assumeTrue(kit.backend().isSupported(), kit.backend().reason());
  }

  private static ConfigurableApplicationContext start(String... properties) {
    List<String> args = new ArrayList<>(List.of("--server.port=0", "--server.address=127.0.0.1"));
    for (String p : properties) {
      args.add("--" + p);
    }
    SpringApplication app = new SpringApplication(WebFluxApp.class);
    app.setWebApplicationType(WebApplicationType.REACTIVE);
    return app.run(args.toArray(String[]::new));
  }

  private static HttpResponse<String> get(ConfigurableApplicationContext context, String path)
      throws Exception {
    String port = context.getEnvironment().getProperty("local.server.port");
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void shouldServeFromPinnedLoopsAndReportThemAtTheActuatorEndpoint() throws Exception {
    PinnedLoopResources loops;
    try (ConfigurableApplicationContext context =
        start(
            "affinitykit.netty.workers=1",
            "affinitykit.netty.transport=nio",
            "affinitykit.netty.wait-policy=spin-then-block",
            "affinitykit.netty.spin-limit=20us",
            "affinitykit.netty.watchdog.enabled=true",
            "affinitykit.netty.watchdog.period=200ms",
            "management.endpoints.web.exposure.include=affinity")) {
      loops = context.getBean(PinnedLoopResources.class);
      LoopAssignment worker = loops.report().loop("worker", 0).orElseThrow();
      HttpResponse<String> answer = get(context, "/thread");

      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(worker.status()).isEqualTo(LeaseStatus.PINNED);
      assertThat(answer.body()).as("the serving thread").isEqualTo(worker.threadName());
      assertThat(loops.groups().waits().requested()).isEqualTo(WaitPolicy.SPIN_THEN_BLOCK);
      Map<Integer, CpuSet> masks = ThreadMasks.now(); // the kernel's, from /proc/self/task
      for (LoopAssignment loop : loops.report().loops()) {
        if (loop.status() == LeaseStatus.PINNED) {
          assertThat(masks.get(loop.tid())).as("%s's mask", loop).isEqualTo(CpuSet.of(loop.cpu()));
        }
      }
      assertThat(loops.watchdog()).get().matches(d -> d.isRunning());

      HttpResponse<String> report = get(context, "/actuator/affinity");
      assertThat(report.statusCode()).isEqualTo(200);
      Files.writeString(Path.of("target", "actuator-affinity.json"), report.body());
      assertThat(report.body())
          .contains("\"transport\":\"NIO\"")
          .contains("worker-0 cpu " + worker.cpu() + " PINNED")
          .contains("\"checks\":");
      MeterRegistry registry = context.getBean(MeterRegistry.class);
      assertThat(context.getBean(AffinityMeterBinder.class)).isNotNull();
      assertThat(registry.get(AffinityMeterBinder.THREADS).tag("status", "pinned").gauge().value())
          .isGreaterThanOrEqualTo(1);
      assertThat(registry.find(AffinityMeterBinder.WATCHDOG_CHECKS).functionCounter()).isNotNull();
    }
    assertThat(loops.isDisposed()).isTrue();
    assertThat(kit.reservations().reservedHere().isEmpty()).as("every CPU free").isTrue();
  }

  @Test
  void shouldPinNothingWhenDisabled() throws Exception {
    try (ConfigurableApplicationContext context = start("affinitykit.netty.enabled=false")) {
      assertThat(context.getBeansOfType(PinnedLoopResources.class)).isEmpty();
      assertThat(get(context, "/thread").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void shouldSayInOneLineWhyWhereTheHostCannotPin() {
    List<String> lines = new ArrayList<>();

    assertThat(PinnableHost.decide(false, "not Linux", lines::add)).isFalse();
    assertThat(PinnableHost.decide(true, "Linux", lines::add)).isTrue();
    assertThat(lines)
        .containsExactly(
            "affinitykit: this host cannot pin threads (not Linux): the Reactor Netty server runs"
                + " on its own loops, unpinned");
  }
}
