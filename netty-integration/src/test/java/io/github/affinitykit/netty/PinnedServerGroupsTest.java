package io.github.affinitykit.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.PinnedThreadFactory;
import io.github.affinitykit.core.cpu.CpuSet;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** Boss, workers and business executor from one pool; transport choice; the 4.1 adapter. */
@EnabledOnOs(OS.LINUX)
@Timeout(60)
class PinnedServerGroupsTest {
  @TempDir Path locks;
  private int first;
  private int last;

  @BeforeEach
  void setUp() {
    AffinityKit probe = LiveKit.create(locks);
    assumeTrue(probe.backend().isSupported(), probe.backend().reason());
    assumeTrue(probe.host().reachable().size() >= 2, "needs 2 CPUs");
    first = probe.host().reachable().first();
    last = probe.host().reachable().last();
  }

  @Test
  void shouldPutTheBossOnHousekeepingWhenThePoolOnlyHoldsTheWorkers() throws Exception {
    AffinityKit kit = LiveKit.create(locks, CpuSet.of(last)); // housekeeping = the other CPU
    try (PinnedServerGroups groups =
        PinnedServerGroups.builder(kit).transport(Transport.NIO).build()) {
      Probe boss = Probe.on(groups.boss().next());
      Probe worker = Probe.on(groups.workers().next());

      AssignmentReport report = groups.report();
      assertThat(report.group("worker")).hasSize(1);
      assertThat(report.loop("worker", 0).orElseThrow().cpu()).isEqualTo(last);
      assertThat(worker.cpusAllowed()).isEqualTo(String.valueOf(last));
      LoopAssignment b = report.loop("boss", 0).orElseThrow();
      assertThat(b.status()).isEqualTo(LeaseStatus.UNPINNED);
      assertThat(b.reason())
          .contains("no CPU of pool " + last + " left for boss-0")
          .contains("already reserved by this JVM")
          .endsWith("runs unpinned on CPUs " + first);
      assertThat(boss.cpusAllowed()).isEqualTo(String.valueOf(first));
      assertThat(report.toString())
          .startsWith("transport NIO (NIO requested and available)")
          .contains("worker-0 cpu " + last + " PINNED");
    }
    assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
  }

  @Test
  void shouldGiveTheBossItsOwnCpuWhenThePoolHasRoom() throws Exception {
    AffinityKit kit = LiveKit.create(locks);
    try (PinnedServerGroups groups =
        PinnedServerGroups.builder(kit).transport(Transport.NIO).workers(1).build()) {
      assertThat(Probe.on(groups.workers().next()).cpusAllowed()).isEqualTo(String.valueOf(first));
      assertThat(Probe.on(groups.boss().next()).cpusAllowed()).isEqualTo(String.valueOf(last));
      assertThat(groups.business()).isEmpty();
    }
  }

  @Test
  void shouldPinABusinessExecutorAfterTheWorkers() throws Exception {
    AffinityKit kit = LiveKit.create(locks);
    try (PinnedServerGroups groups =
        PinnedServerGroups.builder(kit)
            .transport(Transport.NIO)
            .workers(1)
            .businessThreads(1)
            .build()) {
      PinnedEventExecutorGroup business = groups.business().orElseThrow();
      assertThat(Probe.on(business.next()).cpusAllowed()).isEqualTo(String.valueOf(last));
      assertThat(Probe.on(groups.workers().next()).cpusAllowed()).isEqualTo(String.valueOf(first));
      assertThat(groups.report().loop("boss", 0).orElseThrow().status())
          .isEqualTo(LeaseStatus.UNPINNED);
      assertThat(groups.report().loops()).hasSize(3);
    }
  }

  @Test
  void shouldHonourExplicitCpusAndNeverShareACpuAcrossGroupsTheBossComingLast() throws Exception {
    AffinityKit kit = LiveKit.create(locks);
    try (PinnedServerGroups groups =
        PinnedServerGroups.builder(kit)
            .transport(Transport.NIO)
            .bossGroup(kit.group("boss").cpus(last))
            .workers(2)
            .workerGroup(kit.group("worker").cpus(first, first))
            .businessThreads(1)
            .businessGroup(kit.group("business").cpus(last))
            .build()) {
      assertThat(groups.report().loops())
          .extracting(l -> l.group() + "-" + l.index() + "@" + l.cpu())
          .containsExactly(
              "boss-0@-1", "worker-0@" + first, "worker-1@" + first, "business-0@" + last);
      LoopAssignment boss = groups.report().loop("boss", 0).orElseThrow();
      assertThat(boss.status()).isEqualTo(LeaseStatus.UNPINNED);
      assertThat(boss.reason()).contains("cpu " + last + ": already reserved by this JVM");
      assertThat(groups.report().loop("worker", 1).orElseThrow().status())
          .isEqualTo(LeaseStatus.SHARED);
      assertThat(Probe.on(groups.business().orElseThrow().next()).cpusAllowed())
          .isEqualTo(String.valueOf(last));
    }
  }

  @Test
  void shouldBuildUnpinnedGroupsThatStillReport() throws Exception {
    AffinityKit kit = LiveKit.create(locks);
    try (PinnedServerGroups groups =
        PinnedServerGroups.builder(kit)
            .workerGroup(kit.group("worker").unpinned("off"))
            .bossGroup(kit.group("boss").unpinned("off"))
            .workers(2)
            .build()) {
      assertThat(groups.report().loops()).allMatch(l -> l.status() == LeaseStatus.UNPINNED);
      assertThat(groups.transport().transport()).isNotEqualTo(Transport.AUTO);
      assertThat(kit.reservations().reservedHere().isEmpty()).isTrue();
    }
  }

  @Test
  void shouldChooseTheFirstTransportThatLoadsAndSayWhyOthersDidNot() {
    TransportChoice nio =
        TransportChoice.choose(Transport.AUTO, t -> Optional.of("no " + t.name() + " here"));
    assertThat(nio.transport()).isEqualTo(Transport.NIO);
    assertThat(nio.reason())
        .isEqualTo(
            "IO_URING unavailable: no IO_URING here; EPOLL unavailable: no EPOLL here;"
                + " falling back to NIO");
    TransportChoice epoll =
        TransportChoice.choose(
            Transport.AUTO,
            t -> t == Transport.IO_URING ? Optional.of("kernel too old") : Optional.empty());
    assertThat(epoll.transport()).isEqualTo(Transport.EPOLL);
    assertThat(epoll.reason()).isEqualTo("IO_URING unavailable: kernel too old; EPOLL available");
    assertThatThrownBy(() -> TransportChoice.choose(Transport.EPOLL, t -> Optional.of("no lib")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("transport: EPOLL (expected: one that loads here; no lib)");
    TransportChoice here = TransportChoice.choose(Transport.AUTO);
    assertThat(here.transport()).isNotEqualTo(Transport.AUTO);
    assertThat(here.transport().unavailability()).isEmpty();
  }

  @Test
  void shouldParseTransportNames() {
    assertThat(Transport.parse("io_uring")).isEqualTo(Transport.IO_URING);
    assertThat(Transport.parse("IOURING")).isEqualTo(Transport.IO_URING);
    assertThat(Transport.parse(" Epoll ")).isEqualTo(Transport.EPOLL);
    assertThat(Transport.parse("auto")).isEqualTo(Transport.AUTO);
    assertThatThrownBy(() -> Transport.parse("kqueue"))
        .hasMessage("transport: kqueue (expected: auto, io_uring, epoll or nio)");
    assertThatThrownBy(Transport.AUTO::handlerFactory).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void shouldRejectNonsenseCounts() {
    AffinityKit kit = LiveKit.create(locks, CpuSet.of(last));
    assertThatThrownBy(() -> PinnedServerGroups.builder(kit).workers(0))
        .hasMessage("workers: 0 (expected: > 0)");
    assertThatThrownBy(() -> PinnedServerGroups.builder(kit).businessThreads(-1))
        .hasMessage("businessThreads: -1 (expected: >= 0)");
  }

  @Test
  void shouldMakePinnedFastThreadLocalThreadsForNetty41StyleGroups() throws Exception {
    AffinityKit kit = LiveKit.create(locks, CpuSet.of(last));
    PinnedThreadFactory f =
        PinnedThreadFactory.builder(kit.group("legacy"))
            .delegate(new DefaultThreadFactory("legacy"))
            .build();
    MultiThreadIoEventLoopGroup g =
        new MultiThreadIoEventLoopGroup(1, f, NioIoHandler.newFactory());
    try {
      Probe p = Probe.on(g.next());
      assertThat(p.fastThreadLocal()).isTrue();
      assertThat(p.cpusAllowed()).isEqualTo(String.valueOf(last));
      assertThat(f.assignments().get(0).cpu()).isEqualTo(last);
    } finally {
      g.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  @Test
  void shouldIsolateTheWorkersCpusOnlyWhenAskedAndGiveThemBackWhenTheWorkersEnd(@TempDir Path root)
      throws Exception {
    AffinityKit kit = io.github.affinitykit.core.testkit.FixtureKits.isolating(root, 4);
    try (PinnedServerGroups plain =
        PinnedServerGroups.builder(kit).transport(Transport.NIO).workers(1).build()) {
      assertThat(plain.isolation()).as("off by default").isEmpty();
    }
    io.github.affinitykit.core.CpuIsolation iso;
    try (PinnedServerGroups groups =
        PinnedServerGroups.builder(kit)
            .transport(Transport.NIO)
            .workers(2)
            .workerGroup(kit.group("worker").isolate(true))
            .build()) {
      iso = groups.isolation().orElseThrow();
      assertThat(iso.isActive()).as(iso.reason()).isTrue();
      assertThat(iso.cpus()).isEqualTo(CpuSet.of(1, 2));
    }
    assertThat(iso.isActive()).as("undone once the workers terminated").isFalse();
  }
}
