package io.github.affinitykit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.watchdog.RepinPolicy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The agent's {@code -Daffinitykit.agent.repin}: its three values, and a bad one stopping nothing.
 */
class AgentWatchdogTest {
  private final List<String> err = new ArrayList<>();

  @Test
  void shouldReportUnlessAskedToRepinOrReplan() {
    assertThat(AgentWatchdog.policy(null, err::add)).isEqualTo(RepinPolicy.REPORT);
    assertThat(AgentWatchdog.policy(" ", err::add)).isEqualTo(RepinPolicy.REPORT);
    assertThat(AgentWatchdog.policy("repin", err::add)).isEqualTo(RepinPolicy.REPIN);
    assertThat(AgentWatchdog.policy(" Replan ", err::add)).isEqualTo(RepinPolicy.REPLAN);
    assertThat(err).isEmpty();
    assertThat(AgentWatchdog.words(RepinPolicy.REPLAN)).isEqualTo("re-planning");
  }

  @Test
  void shouldSayOneLineAndReportOnABadValue() {
    assertThat(AgentWatchdog.policy("move", err::add)).isEqualTo(RepinPolicy.REPORT);
    assertThat(err)
        .containsExactly(
            "-Daffinitykit.agent.repin: move (expected: report, repin or replan); the watchdog"
                + " reports");
  }
}
