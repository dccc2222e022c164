package io.github.affinitykit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kernel thread ids from a thread dump, in the JDK 17 and the JDK 19+ forms, and from this JVM. */
class ThreadIdsTest {
  @Test
  void shouldReadTheJavaIdAndTheNidOfEachHeader() {
    String dump =
        "Full thread dump\n\n"
            + "\"main\" #1 prio=5 os_prio=0 cpu=50.33ms elapsed=0.12s tid=0x00007f nid=0x3039 runnable\n"
            + "   java.lang.Thread.State: RUNNABLE\n"
            + "\"data-plane-kafka-request-handler-1 \"x\"\" #27 daemon prio=5 tid=0x1 nid=0x10 wait\n"
            + "\"worker\" #31 [4242] prio=5 os_prio=0 cpu=1ms elapsed=1s tid=0x00007f nid=4242 waiting\n";
    assertThat(ThreadIds.parse(dump)).isEqualTo(Map.of(1L, 0x3039, 27L, 16, 31L, 4242));
  }

  @Test
  void shouldFindThisThread() throws Exception {
    assertThat(ThreadIds.now()).containsKey(Thread.currentThread().getId());
  }
}
