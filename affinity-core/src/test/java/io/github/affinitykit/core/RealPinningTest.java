package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import net.openhft.affinity.Affinity;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * Pins real threads on CPUs 0 and 1 (the only ones this needs) and checks the kernel's view in
 * {@code /proc} and OpenHFT's view agree with ours.
 */
@EnabledOnOs(OS.LINUX)
class RealPinningTest {
  private AffinityBackend backend;

  @BeforeEach
  void setUp() {
    backend = AffinityBackend.detect();
    assumeTrue(backend.isSupported(), backend.reason());
    assumeTrue(backend.getAffinity(0).containsAll(CpuSet.of(0, 1)), "needs CPUs 0 and 1");
  }

  @Test
  void shouldPinTheTestThreadToCpu1Then0AndRestore() throws IOException {
    CpuSet original = backend.getAffinity(0);
    try {
      for (int cpu : new int[] {1, 0}) {
        backend.setAffinity(0, CpuSet.of(cpu));
        assertThat(backend.getAffinity(0)).isEqualTo(CpuSet.of(cpu));
        assertThat(allowedList(Path.of("/proc/thread-self/status"))).isEqualTo("" + cpu);
        assertThat(backend.currentCpu()).isEqualTo(cpu);
        assertThat(Affinity.getAffinity()).as("OpenHFT sees our pin").isEqualTo(bits(cpu));
        assertThat(Affinity.getCpu()).isEqualTo(cpu);
      }
    } finally {
      backend.setAffinity(0, original);
    }
    assertThat(allowedList(Path.of("/proc/thread-self/status"))).isEqualTo(original.toString());
  }

  @Test
  void shouldAgreeWithOpenHftOnTheThreadId() {
    assertThat(backend.currentThreadId()).isEqualTo(Affinity.getThreadId());
  }

  @Test
  @Timeout(30)
  void shouldPinAnotherThreadByTid() throws Exception {
    CompletableFuture<Integer> tid = new CompletableFuture<>();
    CountDownLatch pinned = new CountDownLatch(1);
    CompletableFuture<String> seenBySelf = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              tid.complete(backend.currentThreadId());
              try {
                pinned.await();
                String list = allowedList(Path.of("/proc/thread-self/status"));
                seenBySelf.complete(list + " on " + backend.currentCpu());
              } catch (InterruptedException | IOException e) {
                seenBySelf.completeExceptionally(e);
              }
            },
            "pinned-by-tid");
    t.start();
    try {
      int target = tid.get(10, TimeUnit.SECONDS);
      backend.setAffinity(target, CpuSet.of(1));
      assertThat(backend.getAffinity(target)).isEqualTo(CpuSet.of(1));
      assertThat(allowedList(Path.of("/proc/self/task/" + target + "/status"))).isEqualTo("1");
    } finally {
      pinned.countDown();
      t.join(10_000);
    }
    assertThat(seenBySelf.get(10, TimeUnit.SECONDS)).isEqualTo("1 on 1");
  }

  private static String allowedList(Path status) throws IOException {
    return Files.readAllLines(status).stream()
        .filter(l -> l.startsWith("Cpus_allowed_list:"))
        .map(l -> l.substring("Cpus_allowed_list:".length()).trim())
        .findFirst()
        .orElseThrow();
  }

  private static BitSet bits(int cpu) {
    BitSet b = new BitSet();
    b.set(cpu);
    return b;
  }
}
