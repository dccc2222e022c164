package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.WaitAdvice;
import io.github.affinitykit.netty.AssignmentReport;
import io.github.affinitykit.netty.LoopAssignment;
import io.github.affinitykit.netty.WaitPolicy;
import io.github.affinitykit.netty.WaitSelectStrategyFactory;
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
    assertThat(r.waits()).first().isEqualTo("wait policy spin-then-block, spin limit 50us");
    assertThat(r.waits().subList(1, r.waits().size()))
        .isNotEmpty()
        .allMatch(l -> l.contains(" idle SPIN_THEN_BLOCK (spin-then-block requested: "));
    assertThat(r.toString()).contains("wait policy spin-then-block, spin limit 50us");
  }

  @Test
  void shouldLetAnAutoWorkerSpinOnlyWhereTheStartupAuditFoundItsCpuExclusive() {
    assumeTrue(!h.kit.pool().housekeeping().isEmpty(), "exclusive mode needs housekeeping CPUs");
    GatewayServer s = h.start("--pin", "exclusive", "--transport", "nio", "--wait-policy", "auto");

    AssignmentReport r = s.report();
    WaitSelectStrategyFactory waits = s.groups().waits();
    assertThat(waits.advice()).isNotEmpty();
    for (int i = 0; i < waits.advice().size(); i++) {
      WaitAdvice idle = waits.advice().get(i);
      LoopAssignment a = r.loop("worker", i).orElseThrow();
      assertThat(a.status()).isEqualTo(LeaseStatus.PINNED);
      if (waits.mode(i) == WaitPolicy.SPIN_THEN_BLOCK) {
        assertThat(idle.reason()).isEqualTo(WaitAdvice.Reason.AUDITED_EXCLUSIVE);
      } else {
        assertThat(waits.mode(i)).isEqualTo(WaitPolicy.BLOCK);
        assertThat(idle.reason()).isEqualTo(WaitAdvice.Reason.AUDITED_NOT_EXCLUSIVE);
        assertThat(idle.text()).contains("the audit found it INTRUDED");
      }
    }
  }
}
