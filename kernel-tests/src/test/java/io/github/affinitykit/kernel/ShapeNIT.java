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
}
