package io.github.affinitykit.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Shape N live: two NUMA nodes and a virtio NIC behind a PCI expander bridge on node 1, its queues
 * each with an MSI vector.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ShapeNIT extends BootedShape {
  @Override
  Shape shape() {
    return Shapes.N;
  }

  @Test
  void shouldPutTheNicOnNodeOneWithAnIrqPerQueue() {
    JsonNode k = guest.section("n", "nic").path("kernel");
    assertThat(k.path("link").asText()).contains("/pci0000:04/");
    assertThat(k.path("numaNode").asText()).isEqualTo("1");
    assertThat(k.path("localCpus").asText()).isEqualTo("2-3");
    List<String> names = new ArrayList<>();
    k.path("irqs").forEach(i -> names.add(i.path("name").asText()));
    assertThat(names).contains("virtio0-config", "virtio0-input.0", "virtio0-output.0");
  }

  @Test
  void shouldReportTheNicOnNodeOneWithTheIrqsTheKernelListsInTheDoctor() {
    JsonNode k = guest.section("n", "nic").path("kernel");
    JsonNode doctor = guest.section("n", "doctor").path("json");
    JsonNode eth0 = device(doctor, "eth0");
    assertThat(eth0.path("physical").asBoolean()).isTrue();
    assertThat(eth0.path("device").asText()).isEqualTo("virtio0");
    assertThat(eth0.path("node").asInt()).isEqualTo(1);
    assertThat(eth0.path("localCpus").asText()).isEqualTo("2-3");
    assertThat(irqs(eth0)).isEqualTo(irqs(k)).hasSizeGreaterThanOrEqualTo(3);
    assertThat(eth0.path("irqs").findValuesAsText("queue")).contains("0");
    assertThat(device(doctor, "lo").path("physical").asBoolean()).isFalse();
    assertThat(doctor.path("network").path("jvmUseNuma").asText()).isEqualTo("false");
    assertThat(doctor.path("warnings").findValuesAsText("kind"))
        .contains("NIC_IRQ_ON_POOL", "JVM_NOT_NUMA_AWARE");
  }

  private static JsonNode device(JsonNode doctor, String name) {
    for (JsonNode d : doctor.path("network").path("devices")) {
      if (d.path("name").asText().equals(name)) {
        return d;
      }
    }
    throw new AssertionError("no device " + name + " in " + doctor.path("network"));
  }

  /** Each IRQ as "number name effective-cpus", in the order given. */
  private static List<String> irqs(JsonNode withIrqs) {
    List<String> out = new ArrayList<>();
    withIrqs
        .path("irqs")
        .forEach(
            i ->
                out.add(
                    i.path("irq").asInt()
                        + " "
                        + i.path("name").asText()
                        + " "
                        + i.path("effective").asText()));
    return out;
  }
}
