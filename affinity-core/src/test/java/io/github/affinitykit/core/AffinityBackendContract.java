package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.os.AffinityException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The contract every {@link AffinityBackend} keeps: one suite, run against each implementation by a
 * subclass. Tests that need pinning are skipped on an unsupported backend and vice versa.
 */
public abstract class AffinityBackendContract {
  private static final int NO_SUCH_TID = Integer.MAX_VALUE;
  private static final int NO_SUCH_CPU = 100_000;

  private AffinityBackend backend;

  /** Returns a fresh backend under test. */
  public abstract AffinityBackend newBackend();

  @BeforeEach
  public void setUpBackend() {
    backend = newBackend();
  }

  @Test
  public void shouldExplainItselfInReason() {
    assertThat(backend.reason()).isNotBlank();
  }

  @Test
  public void shouldRejectNegativeTid() {
    assertThatThrownBy(() -> backend.getAffinity(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("tid: -1 (expected: >= 0, 0 = calling thread)");
    assertThatThrownBy(() -> backend.setAffinity(-2, CpuSet.of(0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("tid: -2");
  }

  @Test
  public void shouldRejectNullOrEmptyCpus() {
    assertThatThrownBy(() -> backend.setAffinity(0, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("cpus");
    assertThatThrownBy(() -> backend.setAffinity(0, CpuSet.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cpus: empty (expected: at least one CPU)");
  }

  @Test
  public void shouldReportSentinelsAndRefuseMasksWhenUnsupported() {
    assumeFalse(backend.isSupported(), "backend is supported");
    assertThat(backend.currentThreadId()).isEqualTo(-1);
    assertThat(backend.currentCpu()).isEqualTo(-1);
    assertThatThrownBy(() -> backend.getAffinity(0))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining(backend.reason());
    assertThatThrownBy(() -> backend.setAffinity(0, CpuSet.of(0)))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("setAffinity(tid 0, 0)")
        .hasMessageContaining(backend.reason());
  }

  @Test
  public void shouldPinCallingThreadToEachAllowedCpuAndReadItBack() {
    assumeTrue(backend.isSupported(), backend.reason());
    CpuSet original = backend.getAffinity(0);
    assertThat(original.isEmpty()).isFalse();
    try {
      for (int cpu : original.toArray()) {
        backend.setAffinity(0, CpuSet.of(cpu));
        assertThat(backend.getAffinity(0)).isEqualTo(CpuSet.of(cpu));
        assertThat(backend.getAffinity(backend.currentThreadId())).isEqualTo(CpuSet.of(cpu));
        assertThat(backend.currentCpu()).isEqualTo(cpu);
      }
    } finally {
      backend.setAffinity(0, original);
    }
    assertThat(backend.getAffinity(0)).isEqualTo(original);
  }

  @Test
  public void shouldKeepOnlyCpusTheThreadMayUse() {
    assumeTrue(backend.isSupported(), backend.reason());
    CpuSet original = backend.getAffinity(0);
    try {
      backend.setAffinity(0, original.union(CpuSet.of(NO_SUCH_CPU)));
      assertThat(backend.getAffinity(0)).isEqualTo(original);
    } finally {
      backend.setAffinity(0, original);
    }
  }

  @Test
  public void shouldFailWithEinvalNamingTheCpusWhenNoneIsUsable() {
    assumeTrue(backend.isSupported(), backend.reason());
    CpuSet original = backend.getAffinity(0);
    assertThatThrownBy(() -> backend.setAffinity(0, CpuSet.of(NO_SUCH_CPU)))
        .isInstanceOfSatisfying(
            AffinityException.class,
            e -> {
              assertThat(e.errno()).isEqualTo(22);
              assertThat(e.errnoName()).isEqualTo("EINVAL");
              assertThat(e.cpus()).isEqualTo(CpuSet.of(NO_SUCH_CPU));
              assertThat(e.tid()).isZero();
              assertThat(e.call()).isEqualTo("sched_setaffinity");
            })
        .hasMessage("sched_setaffinity(tid 0, 100000): EINVAL (22) Invalid argument");
    assertThat(backend.getAffinity(0)).isEqualTo(original);
  }

  @Test
  public void shouldFailWithEsrchForAnUnknownThread() {
    assumeTrue(backend.isSupported(), backend.reason());
    assertThatThrownBy(() -> backend.getAffinity(NO_SUCH_TID))
        .isInstanceOf(AffinityException.class)
        .hasMessage("sched_getaffinity(tid 2147483647): ESRCH (3) No such process");
    assertThatThrownBy(() -> backend.setAffinity(NO_SUCH_TID, CpuSet.of(0)))
        .isInstanceOfSatisfying(AffinityException.class, e -> assertThat(e.errno()).isEqualTo(3))
        .hasMessage("sched_setaffinity(tid 2147483647, 0): ESRCH (3) No such process");
  }

  @Test
  @Timeout(30)
  public void shouldGiveEachThreadItsOwnStableId() throws Exception {
    assumeTrue(backend.isSupported(), backend.reason());
    int mine = backend.currentThreadId();
    assertThat(mine).isPositive().isEqualTo(backend.currentThreadId());
    int other = onNewThread(backend::currentThreadId);
    assertThat(other).isPositive().isNotEqualTo(mine);
  }

  @Test
  @Timeout(30)
  public void shouldPinAnotherThreadByItsId() throws Exception {
    assumeTrue(backend.isSupported(), backend.reason());
    int target = backend.getAffinity(0).last();
    CompletableFuture<Integer> tid = new CompletableFuture<>();
    CountDownLatch pinned = new CountDownLatch(1);
    CompletableFuture<CpuSet> seen = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              tid.complete(backend.currentThreadId());
              try {
                pinned.await();
                seen.complete(backend.getAffinity(0));
                assertThat(backend.currentCpu()).isEqualTo(target);
              } catch (InterruptedException | AssertionError e) {
                seen.completeExceptionally(e);
              }
            },
            "pin-by-tid");
    t.start();
    try {
      backend.setAffinity(tid.get(10, TimeUnit.SECONDS), CpuSet.of(target));
      assertThat(backend.getAffinity(tid.get())).isEqualTo(CpuSet.of(target));
    } finally {
      pinned.countDown();
      t.join(10_000);
    }
    assertThat(seen.get(10, TimeUnit.SECONDS)).isEqualTo(CpuSet.of(target));
  }

  @Test
  @Timeout(30)
  public void shouldLetNewThreadsInheritTheCreatorsMask() throws Exception {
    assumeTrue(backend.isSupported(), backend.reason());
    CpuSet original = backend.getAffinity(0);
    try {
      backend.setAffinity(0, CpuSet.of(original.first()));
      assertThat(onNewThread(() -> backend.getAffinity(0))).isEqualTo(CpuSet.of(original.first()));
    } finally {
      backend.setAffinity(0, original);
    }
  }

  private static <T> T onNewThread(Supplier<T> task) throws Exception {
    CompletableFuture<T> result = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                result.complete(task.get());
              } catch (RuntimeException | AssertionError e) {
                result.completeExceptionally(e);
              }
            },
            "contract-helper");
    t.start();
    try {
      return result.get(10, TimeUnit.SECONDS);
    } finally {
      t.join(10_000);
    }
  }
}
