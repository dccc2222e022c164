package io.github.affinitykit.hostreport;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.testkit.Fixtures;
import io.github.affinitykit.hostreport.HostWarning.Kind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NicWarningsTest {
  private static HostReport probe(String fixture, Function<String, Optional<String>> vm) {
    return HostReport.read(HostCpus.probe(Fixtures.root(fixture)), vm);
  }

  private static List<HostWarning> of(HostReport host, Kind kind) {
    return host.warnings().stream().filter(w -> w.kind() == kind).toList();
  }

  @Test
  void shouldNameTheNicItsIrqsAndThePoolCpusWhenANicInterruptsThePool() {
    HostReport h = probe(Fixtures.E5_NIC, name -> Optional.of("true"));

    assertThat(h.host().pool().cpus()).hasToString("19-23");
    assertThat(of(h, Kind.NIC_IRQ_ON_POOL))
        .singleElement()
        .extracting(HostWarning::message)
        .asString()
        .startsWith("NIC eth0 interrupts pool CPUs 20 (IRQ 63 i40e-eth0-TxRx-3 -> 20):")
        .contains("/proc/irq/<irq>/smp_affinity_list");
  }

  @Test
  void shouldWarnAboutTheNicOnTheNodeWithoutPoolCpusOnly() {
    HostReport h = probe(Fixtures.E5_NIC, name -> Optional.of("true"));

    assertThat(of(h, Kind.NIC_REMOTE_NODE))
        .singleElement()
        .extracting(HostWarning::message)
        .asString()
        .startsWith(
            "NIC eth1 is on NUMA node 0 (CPUs 0-5,12-17), which holds none of the pool's CPUs"
                + " 19-23:");
    assertThat(of(h, Kind.JVM_NOT_NUMA_AWARE)).isEmpty();
    assertThat(h.jvmUsesNuma()).contains(true);
  }

  @Test
  void shouldWarnAboutAJvmWithoutUseNumaOnlyWhenItSaysFalseOnSeveralNodes() {
    List<String> asked = new ArrayList<>();
    HostReport off =
        probe(
            Fixtures.E5_NIC,
            name -> {
              asked.add(name);
              return Optional.of("false");
            });

    assertThat(asked).containsExactly("UseNUMA");
    assertThat(off.jvmUsesNuma()).contains(false);
    assertThat(of(off, Kind.JVM_NOT_NUMA_AWARE))
        .singleElement()
        .extracting(HostWarning::message)
        .asString()
        .startsWith("this host has 2 NUMA nodes but the JVM runs without -XX:+UseNUMA");
    HostReport unknown = probe(Fixtures.E5_NIC, name -> Optional.empty());
    assertThat(unknown.jvmUsesNuma()).isEmpty();
    assertThat(of(unknown, Kind.JVM_NOT_NUMA_AWARE)).isEmpty();
    assertThat(probe(Fixtures.E5_NIC, name -> Optional.of("maybe")).jvmUsesNuma()).isEmpty();
  }

  @Test
  void shouldNotAskTheJvmOnAOneNodeHost() {
    List<String> asked = new ArrayList<>();
    HostReport h =
        probe(
            "2arm-2c",
            name -> {
              asked.add(name);
              return Optional.of("false");
            });

    assertThat(h.host().topology().numaNodes()).hasSizeLessThan(2);
    assertThat(asked).isEmpty();
    assertThat(h.jvmUsesNuma()).isEmpty();
    assertThat(of(h, Kind.JVM_NOT_NUMA_AWARE)).isEmpty();
  }

  @Test
  void shouldReadUseNumaFromThisVmWhenProbedLiveAndNotForAnotherHostsTree() {
    Optional<String> live = VmOptions.live("UseNUMA");

    assertThat(live).isPresent().get().isIn("true", "false");
    assertThat(VmOptions.live("NoSuchVmOptionAnywhere")).isEmpty();
    HostReport e5 = HostReport.of(HostCpus.probe(Fixtures.root(Fixtures.E5_NIC))); // not this host
    assertThat(e5.jvmUsesNuma()).as("this JVM says nothing of that host's").isEmpty();
    assertThat(of(e5, Kind.JVM_NOT_NUMA_AWARE)).isEmpty();
    HostReport here = HostReport.of(HostCpus.probe());
    if (here.host().topology().numaNodes().size() > 1) {
      assertThat(here.jvmUsesNuma()).isEqualTo(VmOptions.flag(live));
    } else {
      assertThat(here.jvmUsesNuma()).as("one node: not asked").isEmpty();
    }
  }

  @Test
  void shouldGiveNoNicWarningWhenThePoolIsEmpty() {
    HostReport h = probe(Fixtures.E5_NIC, name -> Optional.of("true"));
    List<HostWarning> out = new ArrayList<>();

    NicWarnings.add(h, CpuSet.empty(), out);

    assertThat(out).isEmpty();
  }

  @Test
  void shouldWarnOfTheKernelsNumaBalancingOnSeveralNodesOnly(@TempDir Path root) {
    for (int nodes : new int[] {1, 2}) {
      for (String value : new String[] {"0", "1", "3"}) {
        Path r = root.resolve(nodes + "-" + value);
        io.github.affinitykit.core.testkit.FakeHost tree =
            io.github.affinitykit.core.testkit.FakeHost.create(r, 4, 1)
                .file("proc/sys/kernel/numa_balancing", value);
        if (nodes == 2) {
          tree.file("sys/devices/system/node/node0/cpulist", "0-1")
              .file("sys/devices/system/node/node1/cpulist", "2-3")
              .file("sys/devices/system/node/node1/distance", "20 10");
        }
        HostReport h = HostReport.of(HostCpus.probe(r));
        assertThat(h.numaBalancing()).contains(!value.equals("0"));
        assertThat(of(h, Kind.NUMA_BALANCING_ON))
            .as(nodes + " nodes, numa_balancing " + value)
            .hasSize(nodes > 1 && !value.equals("0") ? 1 : 0);
      }
    }
    io.github.affinitykit.core.testkit.FakeHost.create(root.resolve("none"), 4, 1);
    assertThat(HostReport.of(HostCpus.probe(root.resolve("none"))).numaBalancing()).isEmpty();
  }
}
