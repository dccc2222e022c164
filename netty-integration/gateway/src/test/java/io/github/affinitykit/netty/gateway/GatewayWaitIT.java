package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.netty.AssignmentReport;
import io.github.affinitykit.netty.LoopAssignment;
import io.github.affinitykit.netty.LoopWait;
import io.github.affinitykit.netty.WaitPolicy;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** The gateway's wait policy: echoes on spinning loops, and AUTO decided by a real audit. */
@EnabledOnOs(OS.LINUX)
@Timeout(120)
class GatewayWaitIT {
  @TempDir Path locks;
  private GatewayHarness h;

  @BeforeEach
  void setUp() {
    h = new GatewayHarness(locks);
    assumeTrue(h.kit.backend().isSupported(), h.kit.backend().reason());
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  @Test
  void shouldEchoOnSpinThenBlockLoopsAndShowThePolicyInTheReport() throws Exception {
    GatewayServer s =
        h.start("--pin", "pinned", "--transport", "epoll", "--wait-policy=spin-then-block");
    WsClient c = h.connect(s, "/ws");

    for (int i = 0; i < 50; i++) {
      c.sendText("m" + i);
    }
    for (int i = 0; i < 50; i++) {
      assertThat(c.next().body()).isEqualTo("m" + i);
    }
    AssignmentReport r = s.report();
    assertThat(r.waits().loops())
        .extracting(LoopWait::mode)
        .containsOnly(WaitPolicy.SPIN_THEN_BLOCK);
    assertThat(r.toString()).contains("wait policy spin-then-block, spin limit 50us");
  }

  @Test
  void shouldLetAnAutoWorkerSpinOnlyWhereTheStartupAuditFoundItsCpuExclusive() {
    assumeTrue(!h.kit.pool().housekeeping().isEmpty(), "exclusive mode needs housekeeping CPUs");
    GatewayServer s = h.start("--pin", "exclusive", "--transport", "nio", "--wait-policy", "auto");

    AssignmentReport r = s.report();
    for (LoopWait idle : r.waits().loops()) {
      LoopAssignment a = r.loop(idle.group(), idle.index()).orElseThrow();
      assertThat(a.status()).isEqualTo(LeaseStatus.PINNED);
      if (idle.mode() == WaitPolicy.SPIN_THEN_BLOCK) {
        assertThat(idle.reason()).startsWith("audited EXCLUSIVE");
      } else {
        assertThat(idle.mode()).isEqualTo(WaitPolicy.BLOCK);
        assertThat(idle.reason()).contains("the audit found it SHARED");
      }
    }
    assertThat(r.waits().loops()).isNotEmpty();
  }
}
