package io.github.affinitykit.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.affinitykit.audit.CpuTimes;
import io.github.affinitykit.audit.Pressure;
import io.github.affinitykit.audit.TaskReader;
import io.github.affinitykit.audit.ThreadStats;
import io.github.affinitykit.core.cpu.CpuSetFormatException;
import io.github.affinitykit.core.host.CpuPool;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.hostreport.HostReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Coverage-guided fuzzing of the host probe: the seed machine's sysfs/procfs dump (a copy of the
 * {@code e5-2620v3-nic} fixture) with selected kernel files replaced by arbitrary bytes ({@link
 * FuzzedHostTree} says which and how), probed through {@link HostCpus#probe(Path)}. The probe
 * either returns a model whose derived facts, pool and doctor reports (text and JSON) can all be
 * computed, or throws one of the exceptions it documents; nothing else (no NPE, no index or number
 * format error, no invalid path, no hang: a FIFO, a link to {@code /dev/zero}, an oversized file or
 * a {@code cpuN}/{@code nodeN} past the kernel's limits in place of a file is refused and warned
 * about). The observation readers ({@link CpuTimes}, {@link Pressure}, {@link TaskReader}, {@link
 * ThreadStats}) read the same tree first and must return a value or empty.
 *
 * <p>{@code mvn verify} replays {@code HostFilesFuzzTestInputs/<method>/} (test resources) as
 * regression tests; {@code JAZZER_FUZZ=1} fuzzes (see {@code affinity-core/README-fuzzing.md}).
 */
class HostFilesFuzzTest {
  private static final AffinityBackend BACKEND =
      AffinityBackend.unsupported("fuzzing: nothing binds");

  private static final ObjectMapper JSON = new ObjectMapper();

  @FuzzTest(maxDuration = "10m")
  void shouldReturnAModelOrADocumentedErrorWhenKernelFilesAreArbitrary(byte[] data) {
    FuzzedHostTree tree = FuzzedHostTree.shared();
    tree.write(data);
    try {
      observe(tree.root());
      probeAndExplain(tree.root());
    } finally {
      tree.restore();
    }
  }

  /** The observation readers: a value or empty, never an exception, whatever the files hold. */
  private static void observe(Path root) {
    CpuTimes.read(root).ifPresent(t -> assertThat(t.idleNs()).isNotNegative());
    Pressure.read(root, Pressure.Resource.CPU)
        .ifPresent(p -> assertThat(p.some().totalUs()).isNotNegative());
    TaskReader tasks = TaskReader.at(root);
    tasks.read(1, 1).ifPresent(t -> assertThat(t.cpuNs()).isNotNegative());
    assertThat(tasks.processCpuNs(1).orElse(0)).isNotNegative();
    assertThat(ThreadStats.snapshot(root, 1).threads()).hasSizeLessThanOrEqualTo(1);
  }

  private static void probeAndExplain(Path root) {
    HostCpus host;
    HostReport report;
    try {
      host = HostCpus.probe(root);
      report = HostReport.of(host);
    } catch (IllegalStateException | CpuSetFormatException e) {
      assertThat(e.getMessage()).isNotBlank();
      return; // documented: no CPU listed, or a file that bounds the usable CPUs is malformed
    }
    assertThat(host.topology().known().isEmpty()).isFalse();
    assertThat(host.usable().containsAll(host.reachable())).isTrue();
    assertThat(host.reachable().containsAll(host.exclusive())).isTrue();
    CpuPool pool = host.pool();
    assertThat(host.reachable().containsAll(pool.cpus())).isTrue();
    assertThat(pool.cpus().intersects(pool.housekeeping())).isFalse();
    assertThat(host.isolatedCpus().containsAll(host.isolatedWithSharedCore())).isTrue();
    assertThat(report.warnings()).isNotNull();
    assertThat(DoctorText.render(report, root.toString(), BACKEND)).isNotBlank();
    try {
      assertThat(JSON.readTree(DoctorJson.render(report, root.toString(), BACKEND)).isObject())
          .isTrue();
    } catch (IOException e) {
      throw new UncheckedIOException("doctor --json printed invalid JSON", e);
    }
  }
}
