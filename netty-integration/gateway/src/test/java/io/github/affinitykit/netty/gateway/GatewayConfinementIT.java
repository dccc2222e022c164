package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.audit.CpuAudit;
import io.github.affinitykit.audit.CpuVerdict;
import io.github.affinitykit.audit.CpuVerdict.Verdict;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.testkit.ThreadMasks;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exclusive mode confines the rest of the JVM; every way out gives it back (core's Confinement, the
 * one undo): a normal close, a start whose audit throws, a start whose bind fails. Each test
 * compares every thread's mask with the one it had before the gateway started.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(120)
class GatewayConfinementIT {
  @TempDir Path locks;
  private GatewayHarness h;
  private Map<Integer, CpuSet> before;

  @BeforeEach
  void setUp() {
    h = new GatewayHarness(locks);
    assumeTrue(h.kit.backend().isSupported(), h.kit.backend().reason());
    assumeTrue(!h.kit.pool().housekeeping().isEmpty(), "exclusive mode needs housekeeping CPUs");
    before = ThreadMasks.now();
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  @Test
  void shouldGiveTheJvmItsCpusBackWhenClosed() {
    GatewayServer s = h.start("--pin", "exclusive", "--transport", "nio");
    assertThat(s.confined()).isPresent();
    assertThat(ThreadMasks.now())
        .containsValue(h.kit.pool().housekeeping()); // confined while it runs
    s.close();

    ThreadMasks.assertUnchangedSince(before);
  }

  @Test
  void shouldGiveTheJvmItsCpusBackWhenTheStartupAuditThrows() {
    GatewayConfig config =
        GatewayHarness.config(
            "--port", "0", "--pin", "exclusive", "--transport", "nio", "--wait-policy", "auto");

    assertThatThrownBy(
            () ->
                GatewayServer.start(
                    config,
                    h.kit,
                    GatewayEvents.NONE,
                    (cpus, window) -> {
                      throw new IllegalStateException("audit failed (test)");
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("audit failed (test)");

    ThreadMasks.assertUnchangedSince(before);
    assertThat(h.kit.reservations().reservedHere().isEmpty()).isTrue();
  }

  @Test
  void shouldPublishTheStartAuditsVerdictOfEachWorkerCpu() {
    GatewayConfig config =
        GatewayHarness.config(
            "--port", "0", "--pin", "exclusive", "--transport", "nio", "--wait-policy", "auto");

    try (GatewayServer s =
        GatewayServer.start(
            config,
            h.kit,
            GatewayEvents.NONE,
            (cpus, window) -> {
              List<CpuVerdict> all = new ArrayList<>();
              cpus.forEach(
                  c -> all.add(new CpuVerdict(c, Verdict.EXCLUSIVE, List.of(), List.of())));
              return CpuAudit.from(window, all);
            })) {
      String cpu = String.valueOf(s.report().loop("worker", 0).orElseThrow().cpu());
      Map<String, PromParser.Family> f = PromParser.parse(s.metricsText());

      assertThat(f.get("affinity_cpu_verdict").samples())
          .anyMatch(
              x -> x.labels().equals(Map.of("cpu", cpu, "verdict", "exclusive")) && x.value() == 1)
          .anyMatch(
              x -> x.labels().equals(Map.of("cpu", cpu, "verdict", "intruded")) && x.value() == 0);
      assertThat(f.get("affinity_cpu_intruders").samples())
          .anyMatch(x -> x.labels().equals(Map.of("cpu", cpu)) && x.value() == 0);
    }

    ThreadMasks.assertUnchangedSince(before);
  }

  @Test
  void shouldHoldNothingWhenTheBindFails() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String port = String.valueOf(taken.getLocalPort());
      assertThatThrownBy(
              () ->
                  GatewayServer.start(
                      GatewayHarness.config(
                          "--port", port, "--pin", "exclusive", "--transport", "nio"),
                      h.kit))
          .hasMessageContaining("Address already in use");
    }

    ThreadMasks.assertUnchangedSince(before);
    assertThat(h.kit.reservations().reservedHere().isEmpty()).isTrue();
  }
}
