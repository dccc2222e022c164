package io.github.affinitykit.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.testkit.ForwardingAffinityBackend;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The echo: round trips while it runs, none once closed or failed, and its thread ends. */
@Timeout(30)
class HandoffEchoTest {
  private final RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, 1));

  @Test
  void shouldEchoUntilClosedThenStopAndEndItsThread() {
    AtomicReference<Thread> made = new AtomicReference<>();
    HandoffEcho echo =
        HandoffEcho.start(
            backend,
            1,
            r -> {
              made.set(new Thread(r, "echo"));
              return made.get();
            });
    for (long v = 1; v <= 100; v++) {
      assertThat(echo.roundTrip(v)).isTrue();
    }
    echo.close();
    assertThat(made.get().isAlive()).isFalse();
    assertThat(made.get().isDaemon()).isTrue();
    assertThat(echo.roundTrip(101)).isFalse();
    assertThat(echo.failure()).isEmpty();
    assertThat(backend.calls())
        .extracting(RecordingAffinityBackend.Call::operation, RecordingAffinityBackend.Call::cpus)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("setAffinity", CpuSet.of(1)));
  }

  @Test
  void shouldStopAndKeepTheReasonWhenItsThreadCannotPin() {
    AffinityBackend refusing =
        new ForwardingAffinityBackend(backend) {
          @Override
          public void setAffinity(int tid, CpuSet cpus) {
            throw new IllegalArgumentException("cpus: " + cpus + " (expected: CPUs of 0)");
          }
        };
    try (HandoffEcho echo = HandoffEcho.start(refusing, 1, Thread::new)) {
      assertThat(echo.roundTrip(1)).isFalse();
      assertThat(echo.failure())
          .get()
          .hasToString("java.lang.IllegalArgumentException: cpus: 1 (expected: CPUs of 0)");
    }
    assertThatThrownBy(() -> HandoffEcho.start(backend, -2, Thread::new))
        .hasMessage("cpu: -2 (expected: a CPU id, or -1: unpinned)");
  }
}
