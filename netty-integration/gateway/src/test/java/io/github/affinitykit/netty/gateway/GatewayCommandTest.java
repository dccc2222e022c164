package io.github.affinitykit.netty.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cli.DurationConverter;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.CliRun;
import io.github.affinitykit.netty.SpinLimit;
import io.github.affinitykit.netty.Transport;
import io.github.affinitykit.netty.WaitPolicy;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway's command line: every option, both spellings, and each bad value as one line naming
 * the option, the value and the rule, exit status 2. (A child JVM: {@link GatewayProcessIT}.)
 */
class GatewayCommandTest {
  @TempDir Path locks;

  /** Options are checked before the kit: a run that reaches it fails the test. */
  private static final Supplier<AffinityKit> NO_KIT =
      () -> {
        throw new AssertionError("the kit was asked for");
      };

  static CliRun run(Supplier<AffinityKit> kits, String... args) {
    return CliRun.of((out, err) -> GatewayMain.execute(kits, List.of(args), out, err));
  }

  /** A kit on this host, reserving in the test's directory, with the pool by policy. */
  private AffinityKit kit() {
    return AffinityKit.create(
        HostCpus.probe(), AffinityBackend.detect(), CpuReservations.inDirectory(locks));
  }

  @Test
  void shouldParseEveryOptionInBothSpellings() {
    GatewayConfig c =
        GatewayHarness.config(
            "--port",
            "9000",
            "--transport",
            "EPOLL",
            "--pin=exclusive",
            "--workers",
            "3",
            "--business-threads",
            "2",
            "--max-frame-bytes",
            "4096",
            "--idle-timeout",
            "500ms",
            "--low-water-mark",
            "1000",
            "--high-water-mark",
            "2000",
            "--drain-timeout",
            "PT3S",
            "--request-timeout",
            "4s",
            "--host",
            "127.0.0.2",
            "--work-ns=1500",
            "--nic",
            "eth0",
            "--nic-irqs",
            "share",
            "--watchdog",
            "250ms",
            "--repin",
            "REPORT",
            "--max-connections",
            "50",
            "--metrics-address",
            "[::1]:9090");
    assertThat(c)
        .isEqualTo(
            new GatewayConfig(
                "127.0.0.2",
                9000,
                Transport.EPOLL,
                PinMode.EXCLUSIVE,
                OptionalInt.of(3),
                2,
                4096,
                Duration.ofMillis(500),
                1000,
                2000,
                Duration.ofSeconds(3),
                Duration.ofSeconds(4),
                WaitPolicy.BLOCK,
                SpinLimit.DEFAULT,
                1500,
                java.util.Optional.of("eth0"),
                io.github.affinitykit.hostreport.IrqSharing.SHARE,
                Duration.ofMillis(250),
                io.github.affinitykit.watchdog.RepinPolicy.REPORT,
                50,
                java.util.Optional.of(java.net.InetSocketAddress.createUnresolved("::1", 9090))));
  }

  @Test
  void shouldDefaultToPinnedAutoOn8080() {
    assertThat(GatewayHarness.config()).isEqualTo(GatewayConfig.DEFAULTS);
    assertThat(GatewayConfig.DEFAULTS.pin()).isEqualTo(PinMode.PINNED);
    assertThat(GatewayHarness.config("--idle-timeout", "2m").idleTimeout())
        .isEqualTo(Duration.ofMinutes(2));
    assertThat(GatewayHarness.config("--transport", "iouring", "--pin", "UNPINNED"))
        .extracting(GatewayConfig::transport, GatewayConfig::pin)
        .containsExactly(Transport.IO_URING, PinMode.UNPINNED);
    assertThat(GatewayHarness.config("--drain-timeout", "0s").drainTimeout()).isZero();
  }

  @Test
  void shouldParseTheWaitPolicyAndSpinLimitAsTheLoadTestPassesThem() {
    GatewayConfig c =
        GatewayHarness.config("--wait-policy=spin-then-block", "--spin-limit", "200polls");

    assertThat(c.waitPolicy()).isEqualTo(WaitPolicy.SPIN_THEN_BLOCK);
    assertThat(c.spinLimit()).isEqualTo(SpinLimit.ofPolls(200));
    assertThat(GatewayConfig.DEFAULTS.waitPolicy()).isEqualTo(WaitPolicy.BLOCK);
    assertThat(GatewayConfig.DEFAULTS.spinLimit()).isEqualTo(SpinLimit.DEFAULT);
    assertThat(GatewayHarness.config("--wait-policy", "BUSY_POLL", "--spin-limit=1ms"))
        .extracting(GatewayConfig::waitPolicy, GatewayConfig::spinLimit)
        .containsExactly(WaitPolicy.BUSY_POLL, SpinLimit.parse("1000us"));
    assertOneLine(
        "--wait-policy: spin (expected: one of BLOCK, SPIN_THEN_BLOCK, BUSY_POLL, AUTO)",
        "--wait-policy=spin");
    assertOneLine(
        "--spin-limit: 5 (expected: a positive integer with ns, us, ms, s or polls)",
        "--spin-limit",
        "5");
  }

  @Test
  void shouldTakeTheNicAndItsIrqPolicyInAnyCaseAndRefuseAnyOtherPolicy() {
    GatewayConfig c = GatewayHarness.config("--nic", "eth0", "--nic-irqs=SHARE");
    assertThat(c.nic()).contains("eth0");
    assertThat(c.nicIrqs()).isEqualTo(io.github.affinitykit.hostreport.IrqSharing.SHARE);
    assertThat(GatewayConfig.DEFAULTS.nic()).isEmpty();
    assertThat(GatewayConfig.DEFAULTS.nicIrqs())
        .isEqualTo(io.github.affinitykit.hostreport.IrqSharing.AVOID);
    assertOneLine("--nic-irqs: spread (expected: one of AVOID, SHARE)", "--nic-irqs=spread");
  }

  @Test
  void shouldTakeAWatchdogPeriodOfOneMillisecondOrZeroAndRefuseLess() {
    assertThat(GatewayHarness.config("--watchdog", "1ms").watchdog())
        .isEqualTo(Duration.ofMillis(1));
    assertThat(GatewayHarness.config("--watchdog=0s").watchdog()).isZero();
    assertOneLine("watchdog: PT0.0005S (expected: >= 1ms, or 0 = off)", "--watchdog", "PT0.0005S");
  }

  @Test
  void shouldRejectEachBadOptionWithOneLineAndExitTwo() {
    assertOneLine("--port: 70000 (expected: an integer from 0 to 65535)", "--port", "70000");
    assertOneLine("--port: -1 (expected: an integer from 0 to 65535)", "--port=-1");
    assertOneLine("--port: x (expected: an integer)", "--port", "x");
    assertOneLine(
        "--idle-timeout: 5 (expected: " + DurationConverter.RULE + ")", "--idle-timeout", "5");
    assertOneLine("--idle-timeout: 0s (expected: a duration > 0)", "--idle-timeout", "0s");
    assertOneLine("--request-timeout: PT0S (expected: a duration > 0)", "--request-timeout=PT0S");
    assertOneLine(
        "--drain-timeout: -1s (expected: " + DurationConverter.RULE + ")", "--drain-timeout=-1s");
    assertOneLine(
        "--pin: sideways (expected: one of UNPINNED, PINNED, EXCLUSIVE, ISOLATED)",
        "--pin",
        "sideways");
    assertOneLine(
        "--transport: kqueue (expected: one of AUTO, IO_URING, EPOLL, NIO)",
        "--transport",
        "kqueue");
    assertOneLine("--workers: 0 (expected: an integer >= 1)", "--workers", "0");
    assertOneLine("--work-ns: -1 (expected: an integer from 0 to 10000000)", "--work-ns=-1");
    assertOneLine(
        "--work-ns: 10000001 (expected: an integer from 0 to 10000000)", "--work-ns", "10000001");
    assertOneLine("--business-threads: -1 (expected: an integer >= 0)", "--business-threads=-1");
    assertOneLine(
        "--max-frame-bytes: 124 (expected: an integer from 125 to 16777216)",
        "--max-frame-bytes=124");
    assertOneLine(
        "--max-frame-bytes: 16777217 (expected: an integer from 125 to 16777216)",
        "--max-frame-bytes",
        "16777217");
    assertOneLine("--max-connections: 0 (expected: an integer >= 1)", "--max-connections=0");
    assertOneLine("--restore-timeout: 0s (expected: a duration > 0)", "--restore-timeout=0s");
    assertOneLine(
        "--metrics-address: 9090 (expected: " + GatewayCommand.HostPort.RULE + ")",
        "--metrics-address",
        "9090");
    assertOneLine(
        "--metrics-address: localhost:65536 (expected: " + GatewayCommand.HostPort.RULE + ")",
        "--metrics-address=localhost:65536");
    assertOneLine("--low-water-mark: 0 (expected: an integer >= 1)", "--low-water-mark=0");
    assertOneLine(
        "--high-water-mark: 10 (expected: an integer >= --low-water-mark (32768))",
        "--high-water-mark",
        "10");
    assertOneLine("--port: missing value (expected: --port N)", "--port");
    assertOneLine("unknown option: --bogus (expected: one of --host, --port,", "--bogus", "1");
    assertOneLine("unexpected argument: 8080 (expected: one of --host", "8080");
  }

  @Test
  @Timeout(60)
  void shouldRejectABadPoolOverrideWithOneLine() {
    for (String bad : List.of("abc", "5-1")) {
      System.setProperty("affinitykit.pool", bad);
      try {
        run(this::kit, "--port", "0", "--pin", "unpinned")
            .assertUsageError("-Daffinitykit.pool: cpu list \"" + bad + "\": at position 0: ");
      } finally {
        System.clearProperty("affinitykit.pool");
      }
    }
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  @Timeout(60)
  void shouldRejectExclusiveWhenThePoolLeavesNoHousekeepingCpu() {
    HostCpus host = HostCpus.probe();
    Supplier<AffinityKit> wholeMachine =
        () ->
            AffinityKit.create(
                host,
                AffinityBackend.detect(),
                CpuReservations.inDirectory(locks),
                host.pool(host.reachable()));

    CliRun r =
        run(wholeMachine, "--port", "0", "--pin", "exclusive")
            .assertUsageError(
                "pin: exclusive (expected: housekeeping CPUs for the rest of the JVM");
    assertThat(r.err()).contains("the pool " + host.reachable() + " leaves none");
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  @Timeout(60)
  void shouldExitOneAndSayWhereWhenThePortIsTaken() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      String port = String.valueOf(taken.getLocalPort());

      CliRun r = run(this::kit, "--port", port, "--pin", "unpinned", "--transport", "nio");

      assertThat(r.status()).as(r.err()).isEqualTo(GatewayMain.EXIT_UNAVAILABLE);
      assertThat(r.err()).startsWith("gateway: cannot listen on 127.0.0.1:" + port + ": ");
      assertThat(r.err().lines()).hasSize(1);
      assertThat(r.out()).isEmpty();
    }
  }

  @Test
  void shouldPrintGeneratedHelpAndVersion() {
    CliRun help = run(NO_KIT, "--help");
    CliRun version = run(NO_KIT, "--version");

    assertThat(help.status()).isZero();
    assertThat(help.err()).isEmpty();
    CliRun.assertHelpRendersCleanly(new GatewayCommand(NO_KIT));
    assertThat(help.out())
        .startsWith("Usage: gateway")
        .contains(
            "--host=ADDR",
            "--port=N",
            "--transport=T",
            "--pin=MODE",
            "--workers=N",
            "--nic=IF",
            "--nic-irqs=P",
            "--watchdog=D",
            "--repin=P",
            "--work-ns=NS",
            "--business-threads=N",
            "--max-frame-bytes=N",
            "--idle-timeout=D",
            "--low-water-mark=N",
            "--high-water-mark=N",
            "--drain-timeout=D",
            "--request-timeout=D",
            "--max-connections=N",
            "--metrics-address=HOST:PORT",
            "--restore-timeout=D",
            "16 MiB",
            "default 8080",
            "143");
    assertThat(version.status()).isZero();
    assertThat(version.out()).startsWith("gateway (Affinity Kit ");
  }

  @Test
  void shouldWarnAboutExitOnOutOfMemoryErrorMissingUnlessIsolatedAndPresentWhenIsolated() {
    assertThat(GatewayMain.outOfMemoryWarning(PinMode.PINNED, false))
        .hasValueSatisfying(w -> assertThat(w).contains("is not set").contains("half-dead"));
    assertThat(GatewayMain.outOfMemoryWarning(PinMode.PINNED, true)).isEmpty();
    assertThat(GatewayMain.outOfMemoryWarning(PinMode.ISOLATED, false)).isEmpty();
    assertThat(GatewayMain.outOfMemoryWarning(PinMode.ISOLATED, true))
        .hasValueSatisfying(
            w ->
                assertThat(w).contains("before the isolation can be put back").contains("release"));
  }

  private static void assertOneLine(String start, String... args) {
    CliRun r = run(NO_KIT, args);
    r.assertUsageError(start);
    assertThat(r.out()).as(String.join(" ", args)).isEmpty();
  }
}
