package io.github.affinitykit.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runtime isolation live on Debian 12's 6.1 kernel: no remote partitions, so deep is a shield. This
 * kernel also runs the gateway's fatal exit under {@code --pin isolated}.
 */
@Timeout(value = 17, unit = TimeUnit.MINUTES)
class Isolation61IT extends IsolationShapeIT {
  private static final Shape SHAPE = Shapes.isolation("i-isolation-6.1", "6.1", true);

  @Override
  Shape shape() {
    return SHAPE;
  }

  @Override
  boolean cpusetV1() {
    return true;
  }

  @Override
  String deepMechanism() {
    return "AFFINITY_SHIELD";
  }

  /**
   * A gateway with {@code --pin isolated} driven out of heap puts its isolation back before it
   * halts with status 3: the machine is as before, no journal left.
   */
  @Test
  void shouldRestoreTheIsolationBeforeTheGatewayHaltsOnAnOutOfMemoryError() {
    JsonNode d = guest.section("recover", "gateway-fatal");
    String output = d.path("output").asText();
    assertThat(d.path("healthy").asBoolean()).as(output).isTrue();
    assertThat(output).contains("isolation active: cpus ");
    assertThat(d.path("during").path("files").toString())
        .as("a partition while it ran")
        .contains("affinitykit-");
    assertThat(d.path("exit").asInt()).as(d.path("exhaust").asText()).isEqualTo(3);
    assertThat(output)
        .contains("gateway: fatal: java.lang.OutOfMemoryError: Java heap space")
        .contains("gateway: isolation restored before halting");
    JsonNode before = d.path("before");
    JsonNode after = d.path("after");
    assertSame(before.path("irqs"), after.path("irqs"), "IRQ affinities");
    assertSame(before.path("files"), after.path("files"), "cgroup and kernel files");
    assertSameTasks(before, after);
    assertThat(d.path("journalsLeft")).as("no journal left").isEmpty();
  }
}
