package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.VirtualThreads;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A virtual thread is never pinned through: its kernel thread is a carrier's, so a mask set for it
 * would confine every virtual thread that later runs there. Each way in (a group's seat, {@code
 * pinCurrentThread}, a thread factory with a virtual delegate) says UNSUPPORTED with the reason and
 * makes no system call. Runs on JDK 21+ (CI's JDK 25 pass); on 17 only the platform-thread check.
 */
@Timeout(30)
class VirtualThreadTest {
  @TempDir Path root;
  @TempDir Path locks;
  private final RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, 3));
  private AffinityKit kit;

  @BeforeEach
  void kit() {
    kit =
        AffinityKit.create(
            FakeHost.create(root, 4, 1).probe(), backend, CpuReservations.inDirectory(locks));
  }

  /** {@code Thread.ofVirtual()}'s {@code method}, called by reflection: this compiles on 17. */
  private static Object virtual(String method, Class<?> type, Object arg) throws Exception {
    Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
    Class<?> api = Class.forName("java.lang.Thread$Builder");
    return type == null
        ? api.getMethod(method).invoke(builder)
        : api.getMethod(method, type).invoke(builder, arg);
  }

  private static <T> T onVirtualThread(Supplier<T> work) throws Exception {
    CompletableFuture<T> out = new CompletableFuture<>();
    Thread t =
        (Thread) virtual("unstarted", Runnable.class, (Runnable) () -> out.complete(work.get()));
    t.start();
    return out.get(10, TimeUnit.SECONDS);
  }

  @Test
  void shouldTellAPlatformThreadFromAVirtualOne() {
    assertThat(VirtualThreads.isVirtual(Thread.currentThread())).isFalse();
  }

  @Test
  void shouldRefuseToPinAVirtualThreadAndTouchNoMask() throws Exception {
    assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21+");
    CpuGroup group = kit.group("v").build();
    Seat seat = group.join();

    List<Object> seen =
        onVirtualThread(
            () -> {
              try (CpuLease viaSeat = seat.bind();
                  CpuLease viaKit = kit.pinCurrentThread()) {
                return List.of(
                    VirtualThreads.isVirtual(Thread.currentThread()),
                    viaSeat.status(),
                    viaSeat.reason(),
                    viaKit.status(),
                    viaKit.cpu());
              }
            });

    assertThat(seen.get(0)).isEqualTo(true);
    assertThat(seen.get(1)).isEqualTo(LeaseStatus.UNSUPPORTED);
    assertThat(seen.get(2)).isEqualTo(VirtualThreads.NOT_PINNED);
    assertThat(seen.get(3)).isEqualTo(LeaseStatus.UNSUPPORTED);
    assertThat(seen.get(4)).isEqualTo(-1);
    assertThat(backend.calls()).noneMatch(c -> c.operation().equals("setAffinity"));
    group.close();
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
  }

  @Test
  void shouldSayUnsupportedForAFactoryWhoseDelegateMakesVirtualThreads() throws Exception {
    assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21+");
    ThreadFactory virtualThreads = (ThreadFactory) virtual("factory", null, null);
    try (PinnedThreadFactory f =
        PinnedThreadFactory.builder(kit.group("f")).delegate(virtualThreads).build()) {
      CompletableFuture<Assignment> inside = new CompletableFuture<>();
      Thread t = f.newThread(() -> inside.complete(f.assignments().get(0)));
      t.start();

      Assignment a = inside.get(10, TimeUnit.SECONDS);
      assertThat(a.status()).isEqualTo(LeaseStatus.UNSUPPORTED);
      assertThat(a.reason()).isEqualTo(VirtualThreads.NOT_PINNED);
      t.join(10_000);
    }
    assertThat(backend.calls()).noneMatch(c -> c.operation().equals("setAffinity"));
  }
}
