package io.github.affinitykit.core.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.internal.natives.NativeLayer;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.CliRun;
import io.github.affinitykit.core.testkit.Fixtures;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class AffinityKitCliTest {
  static CliRun run(String... args) {
    return run(AffinityBackend::detect, args);
  }

  static CliRun run(Supplier<AffinityBackend> backend, String... args) {
    return CliRun.of((out, err) -> AffinityKitCli.run(List.of(args), out, err, backend));
  }

  static String e5() {
    return Fixtures.root(Fixtures.E5).toString();
  }

  @Test
  void shouldExplainTheSeedMachineOnOneScreenWhenGivenTheE5Fixture() {
    CliRun r = run("doctor", "--root", e5());

    assertThat(r.status()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out())
        .contains("24 CPUs, 2 packages, 12 cores, SMT up to 2 threads/core, 2 NUMA nodes")
        .contains("node 0: 0-5,12-17  node 1: 6-11,18-23")
        .contains("distances 0: 10 21 | 1: 21 10")
        .containsPattern("isolated +19-23")
        .containsPattern("allowed +0-18 +the isolcpus boot default")
        .containsPattern("Pool +19-23 +isolated")
        .containsPattern("Housekeeping +0-18")
        .contains("isolated CPUs 19-23 share physical cores with non-isolated CPUs 7-11");
    assertThat(r.out().lines().count()).isLessThanOrEqualTo(40);
  }

  @Test
  void shouldPrintParsableJsonWithTheSameFactsWhenAskedForJson() throws Exception {
    CliRun r = run("doctor", "--json", "--root", e5());

    assertThat(r.status()).isZero();
    JsonNode doc = new ObjectMapper().readTree(r.out());
    assertThat(doc.at("/topology/cpus").asInt()).isEqualTo(24);
    assertThat(doc.at("/topology/packages")).hasSize(2);
    assertThat(doc.at("/topology/cores")).hasSize(12);
    assertThat(doc.at("/topology/numaNodes/1").asText()).isEqualTo("6-11,18-23");
    assertThat(doc.at("/topology/numaDistances/0/1").asInt()).isEqualTo(21);
    assertThat(doc.at("/sets/isolated").asText()).isEqualTo("19-23");
    assertThat(doc.at("/pool/cpus").asText()).isEqualTo("19-23");
    assertThat(doc.at("/pool/source").asText()).isEqualTo("ISOLATED");
    assertThat(doc.at("/warnings/0/kind").asText()).isEqualTo("ISOLATED_SIBLING_NOT_ISOLATED");
    assertThat(doc.at("/warnings/0/message").asText()).contains("7-11");
  }

  @Test
  void shouldFailWithOneLineWhenTheCommandOrAnOptionIsUnknownOrMissing() {
    run()
        .assertUsageError(
            "command: none (expected: doctor, isolate, release, jitter, pin, threads)");
    run("doktor")
        .assertUsageError(
            "unknown command: doktor (expected: doctor, isolate, release, jitter, pin, threads)");
    run("doctor", "--jsn")
        .assertUsageError(
            "unknown option: --jsn (expected: one of --json, --root, --audit-ms, --jitter,"
                + " --latency, --latency-refresh, --lock-dir, --help, --version)");
    run("doctor", "--root").assertUsageError("--root: missing value (expected: --root DIR)");
    run("doctor", "--audit-ms", "abc").assertUsageError("--audit-ms: abc (expected: an integer)");
  }

  @Test
  void shouldRejectARootWithoutSysOrProc(@TempDir Path empty) {
    run("doctor", "--root", empty.toString())
        .assertUsageError("--root: " + empty + " (expected: a directory holding sys/ or proc/)");
  }

  @Test
  void shouldPrintGeneratedHelpAndVersionAndExitZero() {
    CliRun help = run("--help");
    CliRun doctorHelp = run("doctor", "--help");
    CliRun version = run("doctor", "--version");

    assertThat(help.status()).isZero();
    assertThat(help.out()).contains("Usage: affinity-kit").contains("doctor").contains("--version");
    assertThat(doctorHelp.status()).isZero();
    assertThat(doctorHelp.err()).isEmpty();
    CliRun.assertHelpRendersCleanly(new KitCommand());
    CliRun.assertHelpRendersCleanly(new DoctorCommand(AffinityBackend::detect));
    assertThat(doctorHelp.out())
        .contains("Usage: affinity-kit doctor")
        .contains("--json")
        .contains("--root=DIR")
        .contains("--audit-ms=N")
        .contains("default 200");
    assertThat(version.status()).isZero();
    assertThat(version.err()).isEmpty();
    assertThat(version.out())
        .startsWith("affinity-kit doctor (Affinity Kit ")
        .doesNotContain("unknown")
        .contains("Java " + Runtime.version());
  }

  @Test
  void shouldReportABadPoolOverrideAsOneLineAndStillExplainTheHost() {
    for (String[] bad :
        new String[][] {
          {"abc", "expected: a decimal cpu number"}, {"5-1", "range 5-1 (expected: start <= end)"}
        }) {
      System.setProperty("affinitykit.pool", bad[0]);
      try {
        CliRun r = run("doctor", "--root", e5());

        r.assertUsageError("-Daffinitykit.pool: cpu list \"" + bad[0] + "\"");
        assertThat(r.err()).contains(bad[1]);
        assertThat(r.out()).contains("Pool         ERROR -Daffinitykit.pool");
      } finally {
        System.clearProperty("affinitykit.pool");
      }
    }
  }

  @Test
  void shouldSayThatItCannotPinAndWhyWhenTheBackendIsTheNoopOne() throws Exception {
    Supplier<AffinityBackend> noop =
        () -> AffinityBackend.unsupported("JNA or libc unavailable: x");

    CliRun text = run(noop, "doctor", "--root", e5());
    CliRun json = run(noop, "doctor", "--json", "--root", e5());

    assertThat(text.status()).isZero();
    assertThat(text.out())
        .contains(
            "Backend    NoopAffinityBackend: CANNOT PIN, threads stay unpinned"
                + " (lease status UNSUPPORTED): JNA or libc unavailable: x");
    JsonNode doc = new ObjectMapper().readTree(json.out());
    assertThat(doc.at("/backend/name").asText()).isEqualTo("NoopAffinityBackend");
    assertThat(doc.at("/backend/supported").isBoolean()).isTrue();
    assertThat(doc.at("/backend/supported").asBoolean()).isFalse();
    assertThat(doc.at("/backend/reason").asText()).isEqualTo("JNA or libc unavailable: x");
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldSayWhichBackendPinsWhenJnaWorks() throws Exception {
    AffinityBackend linux = AffinityBackend.detect();
    assumeTrue(linux.isSupported(), linux.reason());

    CliRun text = run(() -> linux, "doctor", "--root", e5());
    CliRun json = run(() -> linux, "doctor", "--json", "--root", e5());

    assertThat(text.out())
        .contains(
            "Backend    LinuxAffinityBackend: can pin (Linux: " + NativeLayer.system().name());
    assertThat(new ObjectMapper().readTree(json.out()).at("/backend/supported").asBoolean())
        .isTrue();
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldDescribeTheLiveHostWithAnAuditAndThisJvmsThreads() {
    CliRun r = run("doctor", "--audit-ms", "50");

    assertThat(r.status()).isZero();
    assertThat(r.out())
        .startsWith("Affinity Kit doctor: this host")
        .contains("Pool")
        .containsPattern("Audit +50 ms over pool")
        .containsPattern("cpu \\d+: (INTRUDED|EXCLUSIVE)")
        .containsPattern("This JVM +\\d+ threads, 0 pinned by Affinity Kit")
        // a mask line with thread names and their last CPUs; which threads come first depends on
        // which the JVM started (an Attach Listener once pushed "java@" out of the first four)
        .containsPattern("(?m)^  \\S+ +\\d+: \\S[^\\n]*@-?\\d+");
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldListAPinnedThreadWhenExplainingFromInsideAnApplication(@TempDir Path locks)
      throws Exception {
    HostCpus host = HostCpus.probe();
    int cpu = host.reachable().last();
    AffinityKit kit =
        AffinityKit.create(
            host,
            AffinityBackend.detect(),
            CpuReservations.inDirectory(locks),
            host.pool(CpuSet.of(cpu)));
    String[] report = new String[1];
    Thread t =
        new Thread(
            () -> {
              try (CpuLease lease = kit.pinCurrentThread()) {
                report[0] = lease.status() + "\n" + AffinityKitCli.explain(kit, Duration.ZERO);
              }
            },
            "explained");
    t.start();
    t.join(20_000);

    assertThat(report[0])
        .startsWith("PINNED\n")
        .contains("this JVM (pid")
        .contains("Audit      skipped")
        .contains("1 pinned by Affinity Kit")
        .containsPattern(cpu + " +1: explained@" + cpu);
  }

  @Test
  void shouldRejectABadAuditWindow() {
    run("doctor", "--audit-ms", "-5")
        .assertUsageError("--audit-ms: -5 (expected: a whole number of ms, 0 to 999999)");
  }
}
