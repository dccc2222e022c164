package io.github.affinitykit.watchdog;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.ReadmeBlocks;
import io.github.affinitykit.watchdog.WatchEvent.Kind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watchdog example of the production guide ({@code docs/production.md}), compiled and run on
 * this host: the calling thread pinned, its mask widened as an operator's {@code taskset} would,
 * the watchdog puts it back; and checked to be the guide's text, line for line.
 */
@Timeout(60)
class ReadmeWatchdogExampleTest {
  @TempDir Path locks;

  @Test
  void shouldRepinAThreadWhoseMaskWasWidenedOnThisHost() {
    AffinityBackend backend = AffinityBackend.detect();
    HostCpus host = HostCpus.probe();
    Assumptions.assumeTrue(backend.isSupported(), "this host cannot pin: " + backend.reason());
    Assumptions.assumeTrue(host.reachable().size() > 1, "one CPU: a mask cannot be widened");
    AffinityKit kit = AffinityKit.create(host, backend, CpuReservations.inDirectory(locks));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    // README:begin
    Watchdog dog =
        Watchdog.builder(kit) // off until started: one daemon thread on the housekeeping CPUs
            .period(Duration.ofSeconds(1))
            .repin(RepinPolicy.REPIN) // a widened mask is narrowed again while its CPU is allowed
            .listener(event -> out.println(event)) // MOVED, LOST, REPINNED, NOT_REPINNED, INTRUDED
            .start();
    // README:end

    try (dog;
        CpuLease lease = kit.pinCurrentThread()) {
      Assumptions.assumeTrue(lease.isBound(), "no CPU free here: " + lease.reason());
      backend.setAffinity(lease.tid(), host.reachable()); // as `taskset -p -c 0-1 <tid>`

      dog.checkNow(); // or the periodic check before it: the counts are the same

      assertThat(dog.count(Kind.MOVED)).isEqualTo(1);
      assertThat(dog.count(Kind.REPINNED)).isEqualTo(1);
      assertThat(backend.getAffinity(0)).isEqualTo(CpuSet.of(lease.cpu()));
      assertThat(lease.status()).isEqualTo(LeaseStatus.PINNED);
      assertThat(lease.reason()).contains("re-pinned after");
    }
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .contains("MOVED ")
        .contains("REPINNED ")
        .contains("allowed on " + host.reachable());
  }

  @Test
  void shouldBeTheCodeTheReadmeShows() throws IOException {
    Path me =
        Path.of("src/test/java/io/github/affinitykit/watchdog/ReadmeWatchdogExampleTest.java");
    assertThat(ReadmeBlocks.block(me)).hasSize(6);
    ReadmeBlocks.assertShown(me, Path.of("..", "..", "docs", "production.md"));
  }
}
