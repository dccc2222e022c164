package io.github.affinitykit.core.cli;

import static io.github.affinitykit.core.cli.AffinityKitCliTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.testkit.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code doctor --latency N} on this host's first two CPUs, with a cache directory of its own:
 * measured once, read back, measured again on {@code --latency-refresh}; and its refusals.
 */
@Timeout(120)
class DoctorLatencyTest {
  @TempDir Path temp;

  @AfterEach
  void clear() {
    System.clearProperty("affinitykit.pool");
    System.clearProperty("affinitykit.latency.cache");
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldPrintThePoolsMatrixAndTheChoiceMeasuredOnceThenCached() {
    AffinityBackend backend = AffinityBackend.detect();
    assumeTrue(backend.isSupported(), backend.reason());
    CpuSet reachable = HostCpus.probe().reachable();
    assumeTrue(reachable.size() >= 2, "two CPUs: " + reachable);
    CpuSet two = CpuSet.of(reachable.first(), reachable.next(reachable.first() + 1));
    System.setProperty("affinitykit.pool", two.toString());
    System.setProperty("affinitykit.latency.cache", temp.resolve("cache").toString());

    CliRun first = run("doctor", "--audit-ms", "0", "--latency", "2");
    assertThat(first.status()).as(first.err()).isZero();
    String section = first.out().substring(first.out().indexOf("\nLatency    "));
    assertThat(section)
        .startsWith("\nLatency    pool " + two + ", measured: no matrix of CPUs " + two)
        .contains("(cost: two spinning threads pinned per pair of CPUs while it measures)\n")
        .contains("latency placement of 2 CPUs among " + two + " (every set compared)\n")
        .containsPattern("  chosen  " + two + ": worst \\d+\\.\\d ns")
        .containsPattern(" +\\*" + two.first() + " +- +\\d+\\.\\d\n");

    CliRun second = run("doctor", "--audit-ms", "0", "--latency", "2");
    assertThat(second.out())
        .contains("\nLatency    pool " + two + ", read from " + temp.resolve("cache"));
    CliRun refreshed = run("doctor", "--audit-ms", "0", "--latency", "1", "--latency-refresh");
    assertThat(refreshed.out())
        .contains(", measured: a refresh was asked (cost: ")
        .contains("latency placement of 1 CPU among " + two);

    run("doctor", "--audit-ms", "0", "--latency", "3")
        .assertUsageError("--latency: 3 (expected: 1 to 2, the CPUs of the pool " + two + ")");
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldRefuseACacheDirectoryOthersCanWriteInOneLine() throws Exception {
    AffinityBackend backend = AffinityBackend.detect();
    assumeTrue(backend.isSupported(), backend.reason());
    assumeTrue(!HostCpus.probe().pool().isEmpty(), "an empty pool measures nothing");
    Path open = Files.createDirectory(temp.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    System.setProperty("affinitykit.latency.cache", open.toString());
    run("doctor", "--audit-ms", "0", "--latency", "1")
        .assertUsageError(
            "latency cache: " + open + " mode rwxrwxrwx (expected: writable by its owner alone)");
  }

  @Test
  void shouldRefuseARootItCannotMeasure() {
    run("doctor", "--root", AffinityKitCliTest.e5(), "--latency", "2")
        .assertUsageError("--latency: 2 (expected: no --root: it measures this host)");
  }
}
