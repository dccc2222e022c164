package io.github.affinitykit.agrona;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.FragmentHandler;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.Assignment;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.PinnedThreadFactory;
import io.github.affinitykit.core.WaitAdvice;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.ReadmeBlocks;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Aeron example of the Agrona and Aeron guide ({@code docs/agrona-aeron.md}) on this machine:
 * an embedded media driver in dedicated threading mode whose sender and receiver threads come from
 * pinned thread factories and whose conductor runs unpinned, each agent with a {@link
 * PlacedIdleStrategy}; messages go over UDP on localhost (through the sender and the receiver),
 * then each agent is checked where it runs (its lease, the kernel's mask) and how it idles, and
 * why. Assumes 2 CPUs at most: with 1, the receiver runs unpinned.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(120)
class AeronExampleIT {
  private static final int MESSAGES = 1_000;
  private static final int STREAM = 1001;
  private static final long WAIT_NS = 20_000_000_000L;

  @TempDir Path dir;

  @Test
  void shouldCarryMessagesThroughADriverWhoseAgentsArePinnedAndIdleByPlacement() throws Exception {
    // The kit's pool is every CPU this process may use: the default pool keeps CPU 0 for
    // housekeeping, which on 2 CPUs would leave one CPU for the sender and the receiver.
    HostCpus host = HostCpus.probe();
    AffinityKit kit =
        AffinityKit.create(
            host,
            AffinityBackend.detect(),
            CpuReservations.inDirectory(dir.resolve("locks")),
            host.pool(host.reachable()));
    assumeTrue(kit.backend().isSupported(), kit.backend().reason());
    MediaDriver.Context ctx =
        new MediaDriver.Context()
            .aeronDirectoryName(dir.resolve("aeron").toString())
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true);
    String channel = "aeron:udp?endpoint=localhost:" + freePort() + "|term-length=65536";

    // README:begin
    PlacedIdleStrategy senderIdle = PlacedIdleStrategy.of(kit); // one per agent: each decides
    PlacedIdleStrategy receiverIdle = PlacedIdleStrategy.of(kit); // on its own thread, at its
    PlacedIdleStrategy conductorIdle = PlacedIdleStrategy.of(kit); // first idle call
    try (PinnedThreadFactory sender = PinnedThreadFactory.builder(kit.group("sender")).build();
        PinnedThreadFactory receiver = PinnedThreadFactory.builder(kit.group("receiver")).build();
        PinnedThreadFactory conductor =
            PinnedThreadFactory.builder(kit.group("conductor").unpinned("housekeeping")).build();
        MediaDriver driver =
            MediaDriver.launch(
                ctx.threadingMode(ThreadingMode.DEDICATED)
                    .senderThreadFactory(sender)
                    .senderIdleStrategy(senderIdle)
                    .receiverThreadFactory(receiver)
                    .receiverIdleStrategy(receiverIdle)
                    .conductorThreadFactory(conductor)
                    .conductorIdleStrategy(conductorIdle));
        Aeron aeron =
            Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()))) {
      // README:end
      assertThat(exchange(aeron, channel)).isEqualTo((long) MESSAGES * (MESSAGES + 1) / 2);

      List<Assignment> agents = new ArrayList<>();
      agents.add(assertPinnedAgent(kit, "sender", sender, senderIdle));
      agents.add(assertPinnedAgent(kit, "receiver", receiver, receiverIdle));
      Assignment c = assertUnpinnedAgent(kit, conductor, conductorIdle);
      assertThat(agents.stream().filter(a -> a.status() == LeaseStatus.PINNED).count())
          .as("sender and receiver pinned, one CPU each (%s, pool %s)", agents, kit.pool())
          .isEqualTo(Math.min(2, kit.pool().cpus().size()));
      assertThat(c.threadName()).isEqualTo("driver-conductor");
    }
    assertThat(kit.leases()).as("the agents' CPUs freed when the driver closed").isEmpty();
  }

  @Test
  void shouldBeTheCodeTheReadmeShows() throws IOException {
    Path me = Path.of("src/test/java/io/github/affinitykit/agrona/AeronExampleIT.java");
    assertThat(ReadmeBlocks.block(me)).hasSizeGreaterThan(10);
    ReadmeBlocks.assertShown(me, Path.of("..", "..", "docs", "agrona-aeron.md"));
  }

  /** Sends MESSAGES numbers 1..MESSAGES over {@code channel}; returns the sum received. */
  private static long exchange(Aeron aeron, String channel) {
    long[] sum = {0};
    int[] received = {0};
    FragmentHandler onMessage =
        (buffer, offset, length, header) -> {
          sum[0] += buffer.getLong(offset);
          received[0]++;
        };
    try (Subscription sub = aeron.addSubscription(channel, STREAM);
        Publication pub = aeron.addPublication(channel, STREAM)) {
      await(pub::isConnected, "the publication connected to " + channel);
      UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(Long.BYTES));
      for (long i = 1; i <= MESSAGES; i++) {
        buffer.putLong(0, i);
        long deadline = System.nanoTime() + WAIT_NS;
        while (pub.offer(buffer, 0, Long.BYTES) < 0) {
          sub.poll(onMessage, 16); // back pressure: drain
          if (System.nanoTime() > deadline) {
            fail("message " + i + " not offered within 20 s");
          }
        }
      }
      await(() -> sub.poll(onMessage, 16) >= 0 && received[0] == MESSAGES, MESSAGES + " received");
    }
    return sum[0];
  }

  /** The agent's thread, pinned: its lease, the kernel's mask, and the rule's choice. */
  private static Assignment assertPinnedAgent(
      AffinityKit kit, String group, PinnedThreadFactory factory, PlacedIdleStrategy idle)
      throws IOException {
    WaitAdvice choice = awaitChoice(idle);
    assertThat(factory.assignments()).hasSize(1);
    Assignment a = factory.assignments().get(0);
    assertThat(choice.thread()).as("chosen on the agent's own thread").isEqualTo(a.threadName());
    assertThat(a.threadName()).isEqualTo(group); // Aeron names the thread by the agent's role
    if (a.status() != LeaseStatus.PINNED) {
      assertNotPinned(choice, idle);
      return a;
    }
    assertThat(cpusAllowed(a.tid())).as("kernel mask of %s", a).isEqualTo(CpuSet.of(a.cpu()));
    assertThat(kit.lease(a.tid()).map(CpuLease::group)).contains(group);
    assertThat(choice.cpu()).isEqualTo(a.cpu());
    CpuSet core = kit.host().topology().cpu(a.cpu()).core();
    Optional<CpuLease> mate =
        kit.leases().stream().filter(l -> l.tid() != a.tid() && core.contains(l.cpu())).findFirst();
    if (mate.isPresent()) { // core-mates on an SMT host
      assertThat(choice.reason()).isEqualTo(WaitAdvice.Reason.NEIGHBOUR_ON_CORE);
      assertThat(choice.text()).startsWith("core " + core + " also runs ");
      return a;
    }
    WaitAdvice rule = WaitAdvice.decide(kit.host(), a, List.of());
    assertThat(choice.reason()).isEqualTo(rule.reason());
    assertThat(choice.text()).isEqualTo(rule.text());
    assertThat(idle.alias()).isEqualTo(rule.spin() ? "placed-spin" : "placed-backoff");
    return a;
  }

  /** The conductor: unpinned by its group, on the default unpinned mask, backing off. */
  private static Assignment assertUnpinnedAgent(
      AffinityKit kit, PinnedThreadFactory factory, PlacedIdleStrategy idle) throws IOException {
    WaitAdvice choice = awaitChoice(idle);
    assertThat(factory.assignments()).hasSize(1);
    Assignment a = factory.assignments().get(0);
    assertThat(a.status()).isEqualTo(LeaseStatus.UNPINNED);
    assertThat(a.reason()).contains("housekeeping");
    assertThat(choice.thread()).isEqualTo(a.threadName());
    assertThat(kit.lease(a.tid())).isEmpty();
    CpuSet general = kit.host().reachable().minus(kit.host().isolatedCpus());
    assertThat(cpusAllowed(a.tid()))
        .isEqualTo(general.isEmpty() ? kit.host().reachable() : general);
    assertNotPinned(choice, idle);
    return a;
  }

  private static void assertNotPinned(WaitAdvice choice, PlacedIdleStrategy idle) {
    assertThat(choice.reason()).isEqualTo(WaitAdvice.Reason.NOT_PINNED);
    assertThat(choice.cpu()).isEqualTo(-1);
    assertThat(choice.text()).startsWith("not pinned");
    assertThat(idle.alias()).isEqualTo("placed-backoff");
  }

  private static WaitAdvice awaitChoice(PlacedIdleStrategy idle) {
    await(() -> idle.choice().isPresent(), "the agent's first idle call");
    return idle.choice().orElseThrow();
  }

  private static CpuSet cpusAllowed(int tid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/task/" + tid + "/status"))) {
      if (line.startsWith("Cpus_allowed_list:")) {
        return CpuSet.parse(line.substring(line.indexOf(':') + 1).strip());
      }
    }
    throw new IOException("no Cpus_allowed_list in /proc/self/task/" + tid + "/status");
  }

  private static void await(BooleanSupplier done, String what) {
    long deadline = System.nanoTime() + WAIT_NS;
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail(what + ": not within 20 s");
      }
      LockSupport.parkNanos(1_000_000); // the test thread polls; it need not hold a CPU
    }
  }

  private static int freePort() throws IOException {
    try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
