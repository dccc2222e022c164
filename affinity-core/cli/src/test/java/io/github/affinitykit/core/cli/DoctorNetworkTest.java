package io.github.affinitykit.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.testkit.Fixtures;
import io.github.affinitykit.hostreport.HostReport;
import org.junit.jupiter.api.Test;

class DoctorNetworkTest {
  private static final AffinityBackend NOOP = AffinityBackend.unsupported("test");

  private static HostReport nicHost() {
    return HostReport.of(HostCpus.probe(Fixtures.root(Fixtures.E5_NIC)));
  }

  private static String useNuma(HostReport h) {
    return h.jvmUsesNuma()
        .map(on -> on ? "on" : "off")
        .orElse("unknown (another host's tree, or not reported)");
  }

  @Test
  void shouldListEachInterfaceWithItsNodeQueuesIrqsAndSteeringInText() {
    HostReport h = nicHost();

    String text = DoctorText.render(h, "fixture", NOOP);

    assertThat(text)
        .contains(
            "\nNetwork    4 interfaces, 2 NICs; JVM -XX:+UseNUMA "
                + useNuma(h)
                + "; kernel NUMA balancing unknown\n")
        .contains("  docker0      virtual  queues rx 1 tx 1\n")
        .contains(
            "  eth0         0000:81:00.0  node 1  local 6-11,18-23  queues rx 4 tx 4\n"
                + "    rps          rx-0 6-11\n"
                + "    xps          tx-0 6  tx-1 7  tx-2 8  tx-3 9\n"
                + "    irq 59       6                i40e-0000:81:00.0:misc\n"
                + "    irq 60       6                i40e-eth0-TxRx-0  queue 0\n")
        .contains("    irq 63       20               i40e-eth0-TxRx-3  queue 3\n")
        .contains(
            "  eth1         0000:02:00.0  node 0  local 0-5,12-17  queues rx 1 tx 1\n"
                + "    irq 17       1                eth1\n"
                + "  lo           virtual  queues rx 1 tx 1\n")
        .contains("  ! NIC eth0 interrupts pool CPUs 20 (IRQ 63 i40e-eth0-TxRx-3 -> 20)")
        .contains("  ! NIC eth1 is on NUMA node 0 (CPUs 0-5,12-17)");
    assertThat(text.contains("JVM runs without -XX:+UseNUMA"))
        .isEqualTo(h.jvmUsesNuma().equals(java.util.Optional.of(false)));
    assertThat(text.indexOf("\nNetwork")).isBetween(text.indexOf("Pool"), text.indexOf("Warnings"));
  }

  @Test
  void shouldSayWhenNoInterfaceIsVisibleInText() {
    String text =
        DoctorText.render(HostReport.of(HostCpus.probe(Fixtures.root(Fixtures.E5))), "e5", NOOP);

    assertThat(text).contains("\nNetwork    (no /sys/class/net visible); JVM -XX:+UseNUMA ");
  }

  @Test
  void shouldWriteTheNetworkSectionWithStableFieldNamesInJson() throws Exception {
    HostReport h = nicHost();

    JsonNode net =
        new ObjectMapper().readTree(DoctorJson.render(h, "fixture", NOOP)).at("/network");

    assertThat(net.at("/jvmUseNuma").asText()).isEqualTo("unknown"); // a fixture: not this JVM's
    assertThat(net.at("/numaBalancing").asText()).isEqualTo("unknown"); // the tree has no file
    assertThat(net.at("/devices")).hasSize(4);
    JsonNode eth0 = net.at("/devices/1");
    assertThat(eth0.at("/name").asText()).isEqualTo("eth0");
    assertThat(eth0.at("/physical").asBoolean()).isTrue();
    assertThat(eth0.at("/device").asText()).isEqualTo("0000:81:00.0");
    assertThat(eth0.at("/node").asInt()).isEqualTo(1);
    assertThat(eth0.at("/localCpus").asText()).isEqualTo("6-11,18-23");
    assertThat(eth0.at("/rxQueues").asInt()).isEqualTo(4);
    assertThat(eth0.at("/txQueues").asInt()).isEqualTo(4);
    assertThat(eth0.at("/rps/0/queue").asInt()).isZero();
    assertThat(eth0.at("/rps/0/cpus").asText()).isEqualTo("6-11");
    assertThat(eth0.at("/xps")).hasSize(4);
    assertThat(eth0.at("/xps/3/cpus").asText()).isEqualTo("9");
    assertThat(eth0.at("/irqs")).hasSize(5);
    assertThat(eth0.at("/irqs/4/irq").asInt()).isEqualTo(63);
    assertThat(eth0.at("/irqs/4/name").asText()).isEqualTo("i40e-eth0-TxRx-3");
    assertThat(eth0.at("/irqs/4/queue").asInt()).isEqualTo(3);
    assertThat(eth0.at("/irqs/4/effective").asText()).isEqualTo("20");
    assertThat(eth0.at("/irqs/0/queue").asInt()).isEqualTo(-1);
    JsonNode lo = net.at("/devices/3");
    assertThat(lo.at("/physical").asBoolean()).isFalse();
    assertThat(lo.at("/device").asText()).isEmpty();
    assertThat(lo.at("/node").asInt()).isEqualTo(-1);
    assertThat(lo.at("/localCpus").asText()).isEmpty();
    JsonNode warnings =
        new ObjectMapper().readTree(DoctorJson.render(h, "fixture", NOOP)).at("/warnings");
    assertThat(warnings.findValuesAsText("kind")).contains("NIC_IRQ_ON_POOL", "NIC_REMOTE_NODE");
  }
}
