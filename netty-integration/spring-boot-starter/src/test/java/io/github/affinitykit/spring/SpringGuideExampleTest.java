package io.github.affinitykit.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.testkit.ReadmeBlocks;
import io.github.affinitykit.reactor.PinnedLoopResources;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The example of {@code docs/spring-boot.md}, run; and checked to be the guide's, line for line.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(120)
class SpringGuideExampleTest {
  @Test
  void shouldRunTheGuidesExample() throws Exception {
    Files.createDirectories(Path.of(System.getProperty("affinitykit.lock.dir")));
    assumeTrue(AffinityKit.shared().backend().isSupported());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    run(new String[] {"--server.port=0", "--affinitykit.netty.workers=1"}, out);

    String printed = bytes.toString(StandardCharsets.UTF_8);
    Files.writeString(Path.of("target", "spring-guide-report.txt"), printed);
    assertThat(printed).startsWith("transport ").contains("boss-0 cpu").contains("worker-0 cpu");
    assertThat(AffinityKit.shared().reservations().reservedHere().isEmpty()).isTrue();
  }

  /** The guide's block, in a static method as in its {@code main}: the local class has no outer. */
  private static void run(String[] args, PrintStream out) {
    // README:begin
    @SpringBootApplication(proxyBeanMethods = false)
    class App {} // a WebFlux application: spring-boot-starter-webflux and this starter

    try (ConfigurableApplicationContext app = SpringApplication.run(App.class, args)) {
      out.println(app.getBean(PinnedLoopResources.class).report()); // also at /actuator/affinity
    } // the server stops, then its loops, then their CPUs are free
    // README:end
  }

  @Test
  void shouldBeTheCodeTheGuideShows() throws IOException {
    ReadmeBlocks.assertShown(
        Path.of("src/test/java/io/github/affinitykit/spring/SpringGuideExampleTest.java"),
        Path.of("..", "..", "docs", "spring-boot.md"));
  }
}
