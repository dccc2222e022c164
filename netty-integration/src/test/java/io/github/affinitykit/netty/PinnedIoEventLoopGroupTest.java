package io.github.affinitykit.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuGroupBuilder;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.RunOutPolicy;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringIoHandlerConfig;
import io.netty.util.concurrent.AutoScalingEventExecutorChooserFactory;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Loop i runs on planned CPU i, checked by the kernel ({@code /proc/thread-self}), whatever order
 * the loops start in and after a suspend/resume; on NIO, epoll and io_uring. Assumes 2 CPUs.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(60)
class PinnedIoEventLoopGroupTest {
  @TempDir Path locks;
  private AffinityKit kit;
  private int first;
  private int last;
  private final List<EventExecutorGroup> groups = new ArrayList<>();

  @BeforeEach
  void setUp() {
    kit = LiveKit.create(locks);
    assumeTrue(kit.backend().isSupported(), kit.backend().reason());
    assumeTrue(kit.host().reachable().size() >= 2, "needs 2 CPUs");
    first = kit.host().reachable().first();
    last = kit.host().reachable().last();
  }

  @AfterEach
  void shutDown() {
    groups.forEach(g -> g.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly());
  }

  /** Group "loop" on {@code k}: DIFFERENT_CORE then ANY, as a server's workers. */
  private static CpuGroupBuilder spread(AffinityKit k) {
    return k.group("loop").placements(Placement.DIFFERENT_CORE, Placement.ANY);
  }

  private PinnedIoEventLoopGroup group(Transport t, CpuGroup cpus, int loops) {
    assumeTrue(t.unavailability().isEmpty(), () -> t + ": " + t.unavailability().orElse(""));
    PinnedIoEventLoopGroup g = PinnedIoEventLoopGroup.create(loops, factory(t), cpus);
    groups.add(g);
    return g;
  }

  /** io_uring's default (single issuer) cannot change threads; the others can. */
  private static IoHandlerFactory factory(Transport t) {
    return t == Transport.IO_URING
        ? IoUringIoHandler.newFactory(new IoUringIoHandlerConfig().setSingleIssuer(false))
        : t.handlerFactory();
  }

  private static List<EventExecutor> loops(EventExecutorGroup g) {
    List<EventExecutor> out = new ArrayList<>();
    g.forEach(out::add);
    return out;
  }

  @ParameterizedTest
  @EnumSource(names = {"NIO", "EPOLL", "IO_URING"})
  void shouldRunLoopIOnCpuIWhenLoopsStartInReverseOrder(Transport t) throws Exception {
    int[] cpus = {last, first, last, first}; // creation-order pinning would get loops 3..0 wrong
    PinnedIoEventLoopGroup g = group(t, kit.group("loop").cpus(cpus).build(), 4);
    List<EventExecutor> loops = loops(g);

    Probe[] seen = new Probe[4];
    for (int i = 3; i >= 0; i--) {
      seen[i] = Probe.on(loops.get(i));
    }

    for (int i = 0; i < 4; i++) {
      assertThat(seen[i].cpusAllowed()).as("loop %d", i).isEqualTo(String.valueOf(cpus[i]));
      assertThat(seen[i].lastCpu()).as("loop %d", i).isEqualTo(cpus[i]);
      assertThat(seen[i].fastThreadLocal()).as("loop %d", i).isTrue();
      LoopAssignment a = g.assignments().get(i);
      assertThat(a.cpu()).isEqualTo(cpus[i]);
      assertThat(a.status()).isEqualTo(i < 2 ? LeaseStatus.PINNED : LeaseStatus.SHARED);
      assertThat(a.tid()).isEqualTo(seen[i].tid());
      assertThat(a.threadName()).isEqualTo(seen[i].thread().getName());
    }
    assertThat(kit.reservations().reservedHere()).isEqualTo(CpuSet.of(first, last));
  }

  @Test
  void shouldPlanDistinctCoresAndPinTheSecondLoopFirst() throws Exception {
    PinnedIoEventLoopGroup g = group(Transport.NIO, spread(kit).build(), 2);
    List<EventExecutor> loops = loops(g);

    Probe second = Probe.on(loops.get(1));
    Probe firstLoop = Probe.on(loops.get(0));

    int planned0 = g.assignments().get(0).cpu();
    int planned1 = g.assignments().get(1).cpu();
    assertThat(planned0).isEqualTo(first);
    assertThat(planned1).isEqualTo(kit.host().reachable().next(first + 1));
    assertThat(second.cpusAllowed()).isEqualTo(String.valueOf(planned1));
    assertThat(firstLoop.cpusAllowed()).isEqualTo(String.valueOf(planned0));
    assertThat(g.assignments().get(1).reason()).isEqualTo("DIFFERENT_CORE");
  }

  @ParameterizedTest
  @EnumSource(names = {"NIO", "EPOLL", "IO_URING"})
  void shouldRepinALoopResumedOnANewThread(Transport t) throws Exception {
    PinnedIoEventLoopGroup g = group(t, kit.group("loop").cpus(first, last).build(), 2);
    SingleThreadIoEventLoop loop = (SingleThreadIoEventLoop) loops(g).get(1);

    Probe before = Probe.on(loop);
    assertThat(loop.trySuspend()).isTrue();
    before.thread().join(20_000);
    assertThat(before.thread().isAlive()).isFalse();
    assertThat(loop.isSuspended()).isTrue();
    Probe after = Probe.on(loop);

    assertThat(after.thread()).isNotSameAs(before.thread());
    assertThat(after.fastThreadLocal()).isTrue();
    assertThat(before.cpusAllowed()).isEqualTo(String.valueOf(last));
    assertThat(after.cpusAllowed()).isEqualTo(String.valueOf(last));
    assertThat(g.assignments().get(1).starts()).isEqualTo(2);
    assertThat(g.assignments().get(1).tid()).isEqualTo(after.tid());
    assertThat(kit.reservations().reservedHere()).isEqualTo(CpuSet.of(first, last));
  }

  @Test
  void shouldRepinLoopsThatNettysAutoScalerSuspendedAndResumed() throws Exception {
    // The scaler's window is an hour: it makes the loops suspendable and never acts on its own;
    // the test suspends them the way the scaler does (trySuspend), so nothing waits on its timing.
    AutoScalingEventExecutorChooserFactory scaler =
        new AutoScalingEventExecutorChooserFactory(0, 2, 1, TimeUnit.HOURS, 0.5, 0.9, 2, 2, 0);
    PinnedIoEventLoopGroup g =
        PinnedIoEventLoopGroup.create(
            2,
            new DefaultThreadFactory("scaled"),
            NioIoHandler.newFactory(),
            scaler,
            kit.group("scaled").cpus(last, first).build());
    groups.add(g);
    List<EventExecutor> loops = loops(g);
    Probe[] before = {Probe.on(loops.get(0)), Probe.on(loops.get(1))};

    for (int i = 0; i < 2; i++) { // suspended: the loop's thread ends
      SingleThreadEventExecutor loop = (SingleThreadEventExecutor) loops.get(i);
      assertThat(loop.trySuspend() || loop.isSuspended()).as("loop %d suspends", i).isTrue();
      before[i].thread().join(20_000);
      assertThat(before[i].thread().isAlive()).isFalse();
    }
    Probe[] after = {Probe.on(loops.get(0)), Probe.on(loops.get(1))}; // a task resumes each

    for (int i = 0; i < 2; i++) {
      assertThat(after[i].thread()).isNotSameAs(before[i].thread());
      assertThat(after[i].cpusAllowed()).isEqualTo(before[i].cpusAllowed());
    }
    assertThat(after[0].cpusAllowed()).isEqualTo(String.valueOf(last));
    assertThat(after[1].cpusAllowed()).isEqualTo(String.valueOf(first));
  }

  @Test
  void shouldGiveAnUnpinnedLoopTheProcessCpusNotItsPinnedCreators() throws Exception {
    AffinityKit small = LiveKit.create(locks, CpuSet.of(last));
    PinnedIoEventLoopGroup g = group(Transport.NIO, spread(small).build(), 2);
    List<EventExecutor> loops = loops(g);

    // loop 0 (pinned) starts loop 1's thread: that thread inherits loop 0's single CPU at birth
    Probe unpinned = loops.get(0).submit(() -> Probe.on(loops.get(1))).get(20, TimeUnit.SECONDS);

    assertThat(g.assignments().get(0).status()).isEqualTo(LeaseStatus.PINNED);
    assertThat(g.assignments().get(1).status()).isEqualTo(LeaseStatus.UNPINNED);
    assertThat(g.assignments().get(1).reason()).contains("no CPU of pool " + last + " left");
    assertThat(unpinned.cpusAllowed()).isEqualTo(small.host().reachable().toString());
  }

  @Test
  void shouldBindALoopThatSharesACpuToThatCpu() throws Exception {
    // Which CPU a sharing loop gets is CpuGroup's rule (CpuGroupTest); the adapter binds it there.
    CpuGroup spec = spread(kit).runOut(RunOutPolicy.SHARE).build();
    PinnedIoEventLoopGroup g = group(Transport.NIO, spec, 4);

    LoopAssignment shared = g.assignments().get(3);
    assertThat(shared.status()).isEqualTo(LeaseStatus.SHARED);
    assertThat(Probe.on(loops(g).get(3)).cpusAllowed()).isEqualTo(String.valueOf(shared.cpu()));
  }

  @Test
  void shouldFreeEveryCpuOnceTheGroupHasTerminated() throws Exception {
    PinnedIoEventLoopGroup g = group(Transport.NIO, spread(kit).build(), 2);
    loops(g).forEach(l -> l.execute(() -> {}));
    assertThat(kit.reservations().reservedHere()).isEqualTo(CpuSet.of(first, last));
    CountDownLatch freed = new CountDownLatch(1);
    g.terminationFuture().addListener(f -> freed.countDown()); // runs after the group's own

    g.shutdownGracefully(0, 1, TimeUnit.SECONDS);

    assertThat(freed.await(20, TimeUnit.SECONDS)).isTrue();
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
  }

  @Test
  void shouldFailAndFreeWhatItTookWhenTheRunOutPolicyIsFail() {
    CpuGroup spec = spread(kit).runOut(RunOutPolicy.FAIL).build();
    assertThatThrownBy(() -> group(Transport.NIO, spec, 3))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("loop-2")
        .hasMessageContaining("run-out policy FAIL");
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
  }

  @Test
  void shouldRejectExplicitCpusThatDoNotFitTheGroupHoldingNothing() {
    // The rule and its message are CpuGroup's (CpuGroupTest); the adapter holds nothing.
    assertThatThrownBy(() -> group(Transport.NIO, kit.group("loop").cpus(first).build(), 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("loop: cpus: [" + first + "] (expected: 2 CPUs, one per member");
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
  }

  @Test
  void shouldReportButNotPinWhenPinningIsOff() throws Exception {
    PinnedIoEventLoopGroup g = group(Transport.NIO, kit.group("loop").unpinned("off").build(), 1);
    Probe p = Probe.on(loops(g).get(0));
    LoopAssignment a = g.assignments().get(0);
    assertThat(a.status()).isEqualTo(LeaseStatus.UNPINNED);
    assertThat(a.reason()).isEqualTo("off");
    assertThat(a.tid()).isEqualTo(p.tid());
    assertThat(a.running()).isTrue();
    assertThat(a.toString()).startsWith("loop-0 cpu -1 UNPINNED (off) thread ");
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
  }
}
