package io.github.affinitykit.latency;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.testkit.FakeHost;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The key of a host: its topology, kernel release and CPU model, each change a new id. */
class HostKeyTest {
  @TempDir Path root;
  @TempDir Path other;

  @Test
  void shouldReadTheKernelAndModelUnderTheHostsRoot() {
    FakeHost host =
        FakeHost.create(root, 4, 2)
            .file("proc/sys/kernel/osrelease", "6.8.0-49-generic\n")
            .file(
                "proc/cpuinfo",
                "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7R13 Processor\n");
    HostKey key = HostKey.of(host.probe());
    assertThat(key.kernel()).isEqualTo("6.8.0-49-generic");
    assertThat(key.model()).isEqualTo("AMD EPYC 7R13 Processor");
    assertThat(key.topology())
        .isEqualTo("cpus 0-3; packages [0-3]; cores [0,2, 1,3]; l3 []; nodes {0=0-3}");
    assertThat(key.id()).matches("[0-9a-f]{16}").isEqualTo(HostKey.of(host.probe()).id());
  }

  @Test
  void shouldGiveAnotherIdForAnotherTopologyKernelOrModel() {
    HostKey key = HostKey.of(FakeHost.create(root, 4, 2).probe());
    assertThat(key.kernel()).isEqualTo("unknown");
    assertThat(key.model()).isEqualTo("unknown");
    assertThat(HostKey.of(FakeHost.create(other, 4, 1).probe()).id()).isNotEqualTo(key.id());
    assertThat(new HostKey(key.topology(), "6.9", key.model()).id()).isNotEqualTo(key.id());
    assertThat(new HostKey(key.topology(), key.kernel(), "other").id()).isNotEqualTo(key.id());
  }
}
