package io.github.affinitykit.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.testkit.CliRun;
import io.github.affinitykit.core.testkit.Fixtures;
import io.github.affinitykit.core.testkit.HostileFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code doctor --root} on hostile trees (a copy of the seed machine's fixture with a FIFO, a link
 * to a device, an oversized file or an index past the kernel's limits in place of a file it reads)
 * returns, and warns naming the file. Before: a FIFO as {@code online} hung it, a link to {@code
 * /dev/zero} read a gigabyte and died of {@code OutOfMemoryError}. The timeout is loose (a normal
 * run takes about a second here): it fails a hang, not a slow machine.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(60)
class DoctorHostileTreeTest {
  @TempDir static Path dir;
  private static Path tree;
  private Path changed;

  @BeforeAll
  static void copy() {
    tree = HostileFiles.copy(Fixtures.root(Fixtures.E5_NIC), dir.resolve("host"));
  }

  /** Puts the fixture's file back (a FIFO or link deleted first, not written through). */
  @AfterEach
  void restore() throws IOException {
    if (changed != null) {
      Path rel = tree.relativize(changed);
      Files.deleteIfExists(changed);
      Path original = Fixtures.root(Fixtures.E5_NIC).resolve(rel.toString());
      if (Files.isRegularFile(original)) {
        Files.copy(original, changed, StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "sys/devices/system/cpu/online",
        "sys/devices/system/cpu/cpu0/topology/core_cpus_list",
        "sys/devices/system/cpu/cpu0/topology/physical_package_id",
        "sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list",
        "sys/devices/system/cpu/isolated",
        "sys/devices/system/node/node0/cpulist",
        "sys/devices/system/node/node0/distance",
        "sys/fs/cgroup/cpuset.cpus.effective",
        "sys/class/net/eth0/device/numa_node",
        "proc/interrupts",
        "proc/cmdline",
        "proc/mounts",
        "proc/self/cgroup",
        "proc/self/status",
        "proc/irq/63/smp_affinity_list",
        "proc/irq/default_smp_affinity"
      })
  void shouldWarnNamingAFifoAndReturnWhenItStandsForAFileTheDoctorReads(String file) {
    changed = tree.resolve(file);
    HostileFiles.fifo(changed);

    assertRefused(changed, ": a FIFO (expected: a regular file");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "sys/devices/system/cpu/online",
        "sys/devices/system/cpu/cpu1/topology/core_cpus_list",
        "sys/devices/system/node/node1/distance",
        "proc/interrupts",
        "proc/self/status"
      })
  void shouldWarnNamingALinkToDevZeroAndReturnWhenItStandsForAFileTheDoctorReads(String file) {
    changed = tree.resolve(file);
    HostileFiles.link(changed, "/dev/zero");

    assertRefused(changed, ": a link to /dev/zero (expected: a file under ");
  }

  @Test
  void shouldWarnNamingAnAttributeLongerThanAPage() {
    changed = tree.resolve("sys/devices/system/cpu/online");
    HostileFiles.sized(changed, 4097);

    assertRefused(changed, ": more than 4096 bytes (expected: a sysfs attribute, at most a page)");
  }

  @Test
  void shouldWarnNamingCpuAndNodeDirectoriesPastTheKernelsLimits() throws IOException {
    Path cpu = Files.createDirectories(tree.resolve("sys/devices/system/cpu/cpu999999999"));
    Path node = Files.createDirectories(tree.resolve("sys/devices/system/node/node4096"));
    try {
      CliRun run = DoctorRunTest.picocli(List.of("doctor", "--root", tree.toString()));

      assertThat(run.status()).as(run.err()).isZero();
      assertThat(run.out())
          .contains("! not read: " + cpu + ": cpu 999999999 (expected: < 8192")
          .contains("! not read: " + node + ": node 4096 (expected: < 1024");
    } finally {
      Files.delete(cpu);
      Files.delete(node);
    }
  }

  /** The text and JSON reports, through picocli and the plain path, all name the file. */
  private static void assertRefused(Path file, String why) {
    List<String> text = List.of("doctor", "--root", tree.toString());
    CliRun picocli = DoctorRunTest.picocli(text);
    assertThat(picocli.status()).as(picocli.err()).isZero();
    assertThat(picocli.out()).contains("! not read: " + file + why);

    OptionalInt[] status = new OptionalInt[1];
    CliRun plain = DoctorRunTest.plain(text, status);
    assertThat(status[0]).hasValue(0);
    assertThat(plain.out()).isEqualTo(picocli.out());

    CliRun json = DoctorRunTest.picocli(List.of("doctor", "--json", "--root", tree.toString()));
    assertThat(json.status()).isZero();
    assertThat(json.out()).contains("\"HOST_FILE_REFUSED\"").contains(file.toString());
  }
}
