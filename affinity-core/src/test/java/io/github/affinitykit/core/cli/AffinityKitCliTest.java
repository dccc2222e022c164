package io.github.affinitykit.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.affinitykit.core.AffinityBackend;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.CpuReservations;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.Fixtures;
import io.github.affinitykit.core.HostCpus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class AffinityKitCliTest {
  /** Exit status and what the CLI printed. */
  record Run(int status, String out, String err) {}

  static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        AffinityKitCli.run(
            List.of(args),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  static String e5() {
    return Fixtures.root(Fixtures.E5).toString();
  }

  @Test
  void shouldExplainTheSeedMachineOnOneScreenWhenGivenTheE5Fixture() {
    Run r = run("doctor", "--root", e5());

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
    Run r = run("doctor", "--json", "--root", e5());

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
  void shouldFailWithUsageWhenTheCommandOrAnOptionIsUnknown() {
    assertThat(run()).extracting(Run::status).isEqualTo(2);
    Run cmd = run("doktor");
    assertThat(cmd.status()).isEqualTo(2);
    assertThat(cmd.err()).contains("unknown command: doktor (expected: doctor)");
    Run opt = run("doctor", "--jsn");
    assertThat(opt.status()).isEqualTo(2);
    assertThat(opt.err()).contains("unknown option: --jsn");
    Run help = run("--help");
    assertThat(help.status()).isZero();
    assertThat(help.out()).contains("usage: affinity-kit doctor");
  }

  @Test
  void shouldRejectARootWithoutSysOrProc(@TempDir Path empty) {
    Run r = run("doctor", "--root", empty.toString());

    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains(empty.toString()).contains("expected: a directory holding sys/");
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldDescribeTheLiveHostWithAnAuditAndThisJvmsThreads() {
    Run r = run("doctor", "--audit-ms", "50");

    assertThat(r.status()).isZero();
    assertThat(r.out())
        .startsWith("Affinity Kit doctor: this host")
        .contains("Pool")
        .containsPattern("Audit +50 ms over pool")
        .containsPattern("cpu \\d+: (SHARED|EXCLUSIVE)")
        .containsPattern("This JVM +\\d+ threads, 0 pinned by Affinity Kit")
        .contains("java@");
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
    Run r = run("doctor", "--audit-ms", "-5");

    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("--audit-ms: -5 (expected: a whole number of ms");
  }
}
