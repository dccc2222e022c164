package io.github.affinitykit.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.TestTree;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuSetFormatException;
import io.github.affinitykit.core.testkit.HostileFiles;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every read of a host file is bounded and type-checked: FIFOs, devices and sockets are refused
 * without being opened, oversized files and links out of the tree are refused, and indices past the
 * kernel's limits are left out; each refusal names the file.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(60) // a FIFO opened to read would block for ever: the test would hang, not fail
class SysFsBoundsTest {
  private static final String ONLINE = "/sys/devices/system/cpu/online";

  @TempDir Path dir;

  @Test
  void shouldRefuseAFifoWithoutOpeningItWhenReading() {
    Path tree = dir.resolve("t");
    HostileFiles.fifo(tree.resolve(ONLINE.substring(1)));
    SysFs fs = new SysFs(tree);

    assertThat(fs.read(ONLINE)).isEmpty();
    assertThat(fs.cpuListOrEmpty(ONLINE)).isEmpty();
    assertThat(fs.refusals())
        .containsExactly(
            tree.resolve(ONLINE.substring(1))
                + ": a FIFO (expected: a regular file; not opened, it could block)");
  }

  @Test
  void shouldRefuseADeviceOrSocketWhenALinkOrTheFileIsOne() throws Exception {
    Path tree = dir.resolve("t");
    HostileFiles.link(tree.resolve("sys/devices/system/cpu/online"), "/dev/zero");
    HostileFiles.link(tree.resolve("proc/stat"), "/dev/null");
    SysFs fs = new SysFs(tree);
    try (ServerSocketChannel socket = HostileFiles.socket(tree.resolve("proc/interrupts"))) {
      assertThat(fs.read(ONLINE)).isEmpty();
      assertThat(fs.lines("/proc/stat")).isEmpty();
      assertThat(fs.lines("/proc/interrupts")).isEmpty();
      assertThat(socket.isOpen()).isTrue(); // listening while read: connecting would not block
    }
    assertThat(String.join("\n", fs.refusals()))
        .contains("online: a link to /dev/zero (expected: a file under " + tree.toRealPath())
        .contains("stat: a link to /dev/null")
        .contains("proc/interrupts: a socket (expected: a regular file");
  }

  @Test
  void shouldRefuseADeviceLinkOnTheLiveRootWhereLinksMayGoAnywhere() {
    Path tree = dir.resolve("t");
    HostileFiles.link(tree.resolve("zero"), "/dev/zero");

    // the real root: any link stays under "/", so the type decides
    SysFs live = new SysFs(Path.of("/"));
    String zero = tree.resolve("zero").toString();

    assertThat(live.read(zero)).isEmpty();
    assertThat(live.refusals())
        .containsExactly(
            zero
                + ": a character device (expected: a regular file; not opened,"
                + " it could block)");
    assertThat(live.read("/proc/self/stat")).isPresent();
  }

  @Test
  void shouldReadALinkWithinTheTreeAndRefuseOneOutOfIt() throws Exception {
    Path tree = dir.resolve("t");
    TestTree.at(tree).file("sys/devices/real/core_cpus_list", "0-3");
    Files.writeString(dir.resolve("outside"), "0-1\n");
    HostileFiles.link(tree.resolve("sys/a/core_cpus_list"), "../devices/real/core_cpus_list");
    HostileFiles.link(tree.resolve("sys/b/core_cpus_list"), dir.resolve("outside").toString());
    SysFs fs = new SysFs(tree);

    assertThat(fs.cpus("/sys/a/core_cpus_list")).contains(CpuSet.range(0, 3));
    assertThat(fs.cpus("/sys/b/core_cpus_list")).isEmpty();
    assertThat(fs.refusals())
        .containsExactly(
            tree.resolve("sys/b/core_cpus_list")
                + ": a link to "
                + dir.toRealPath().resolve("outside")
                + " (expected: a file under "
                + tree.toRealPath()
                + ")");
  }

  @Test
  void shouldReadUpToAPageAndRefuseMoreWhenTheFileIsASysfsAttribute() {
    Path tree = dir.resolve("t");
    HostileFiles.sized(tree.resolve("sys/devices/system/cpu/cpu0/online"), 4096);
    HostileFiles.sized(tree.resolve("sys/devices/system/cpu/cpu1/online"), 4097);
    SysFs fs = new SysFs(tree);

    assertThat(fs.read("/sys/devices/system/cpu/cpu0/online"))
        .hasValueSatisfying(s -> assertThat(s).hasSize(4096));
    assertThat(fs.read("/sys/devices/system/cpu/cpu1/online")).isEmpty();
    assertThat(fs.refusals())
        .containsExactly(
            tree.resolve("sys/devices/system/cpu/cpu1/online")
                + ": more than 4096 bytes (expected: a sysfs attribute, at most a page)");
  }

  @Test
  void shouldReadTheLongestCpuListOf8192CpusWhenTheFileIsAListBeyondAPage() {
    StringJoiner every2nd = new StringJoiner(",");
    for (int cpu = 0; cpu < KernelLimits.CPUS; cpu += 2) {
      every2nd.add(Integer.toString(cpu));
    }
    TestTree.at(dir).file("sys/devices/system/node/node0/cpulist", every2nd.toString());
    SysFs fs = new SysFs(dir);

    assertThat(every2nd.length()).isGreaterThan(4096).isLessThan(KernelLimits.CPU_LIST);
    assertThat(fs.cpuList("/sys/devices/system/node/node0/cpulist").orElseThrow().size())
        .isEqualTo(KernelLimits.CPUS / 2);
    assertThat(fs.refusals()).isEmpty();
  }

  @Test
  void shouldReadAnInterruptsFileOf8192CpusAndRefuseASoftirqsFileLongerThanItsCap() {
    StringBuilder t = new StringBuilder("      ");
    for (int cpu = 0; cpu < KernelLimits.CPUS; cpu++) {
      t.append(String.format("CPU%-8d", cpu));
    }
    for (int irq = 0; irq < 40; irq++) {
      t.append(String.format("%n%4d: ", irq));
      for (int cpu = 0; cpu < KernelLimits.CPUS; cpu++) {
        t.append(String.format("%10d ", 4_000_000_000L));
      }
      t.append(" IR-PCI-MSIX-0000:3b:00.0 ").append(irq).append("-edge eth0-TxRx-").append(irq);
    }
    TestTree.at(dir).file("proc/interrupts", t.toString());
    HostileFiles.sized(dir.resolve("proc/softirqs"), KernelLimits.SOFTIRQS + 1);
    SysFs fs = new SysFs(dir);

    assertThat(fs.lines("/proc/interrupts")).hasSize(41);
    assertThat(t.length() / 41).isLessThan(KernelLimits.TABLE_ROW);
    assertThat(fs.read("/proc/softirqs")).isEmpty();
    assertThat(fs.refusals())
        .containsExactly(
            dir.resolve("proc/softirqs")
                + ": more than "
                + KernelLimits.SOFTIRQS
                + " bytes (expected: at most "
                + KernelLimits.SOFTIRQS
                + ", what this file holds on a kernel of 8192 CPUs)");
  }

  @Test
  void shouldBoundEachKindOfFileByItsOwnLimit() {
    assertThat(KernelLimits.bytes("/sys/devices/system/cpu/online")).isEqualTo(4096);
    assertThat(KernelLimits.bytes("/sys/devices/system/cpu/cpu0/topology/core_cpus_list"))
        .isEqualTo(28_672);
    assertThat(KernelLimits.bytes("/sys/fs/cgroup/x/cpuset.cpus.effective")).isEqualTo(28_672);
    assertThat(KernelLimits.bytes("/dev/cpuset/effective_cpus")).isEqualTo(28_672); // noprefix v1
    assertThat(KernelLimits.bytes("/sys/fs/cgroup/x/cgroup.threads")).isEqualTo(32 << 20);
    assertThat(KernelLimits.bytes("/proc/1/task/1/status")).isEqualTo(64 << 10);
    assertThat(KernelLimits.bytes("/proc/interrupts")).isBetween(63 << 20, 64 << 20);
    assertThat(KernelLimits.bytes("/proc/stat")).isBetween(4 << 20, 5 << 20);
    assertThat(KernelLimits.bytes("/proc/softirqs")).isLessThan(1 << 20);
    assertThat(KernelLimits.bytes("/proc/cpuinfo")).isEqualTo(32 << 20);
    assertThat(KernelLimits.bytes("/proc/self/mounts")).isEqualTo(16 << 20);
  }

  @Test
  void shouldLeaveOutIndicesPastTheKernelsLimitsBeforeSizingAnythingByThem() {
    TestTree.at(dir)
        .dir("sys/devices/system/cpu/cpu8191")
        .dir("sys/devices/system/cpu/cpu8192")
        .dir("sys/devices/system/cpu/cpu999999999")
        .dir("sys/devices/system/node/node1023")
        .dir("sys/devices/system/node/node1024");
    SysFs fs = new SysFs(dir);
    String cpus = "/sys/devices/system/cpu";
    String nodes = "/sys/devices/system/node";

    assertThat(fs.index(cpus, "cpu8191", "cpu", KernelLimits.CPUS)).isEqualTo(8191);
    assertThat(fs.index(cpus, "cpu8192", "cpu", KernelLimits.CPUS)).isEqualTo(-1);
    assertThat(fs.index(cpus, "cpu999999999", "cpu", KernelLimits.CPUS)).isEqualTo(-1);
    assertThat(fs.index(nodes, "node1023", "node", KernelLimits.NODES)).isEqualTo(1023);
    assertThat(fs.index(nodes, "node1024", "node", KernelLimits.NODES)).isEqualTo(-1);
    assertThat(fs.index(cpus, "cpufreq", "cpu", KernelLimits.CPUS)).isEqualTo(-1);
    assertThat(fs.refusals())
        .containsExactly(
            dir.resolve("sys/devices/system/cpu/cpu8192")
                + ": cpu 8192 (expected: < 8192, the kernel's limit): left out",
            dir.resolve("sys/devices/system/cpu/cpu999999999")
                + ": cpu 999999999 (expected: < 8192, the kernel's limit): left out",
            dir.resolve("sys/devices/system/node/node1024")
                + ": node 1024 (expected: < 1024, the kernel's limit): left out");
  }

  @Test
  void shouldRejectAHostListNamingACpuPastTheLimitWithoutSizingAMaskByIt() {
    assertThat(SysFs.hostList("0-8191").size()).isEqualTo(8192);
    assertThatThrownBy(() -> SysFs.hostList("0-8192"))
        .isInstanceOf(CpuSetFormatException.class)
        .hasMessageContaining("cpu 8192 out of range (expected: < 8192");
    // past CpuSet.MAX_CPUS the parser refuses before it sets a bit: no gigabytes for 4e9
    assertThatThrownBy(() -> SysFs.hostList("0-4000000000"))
        .isInstanceOf(CpuSetFormatException.class);
    assertThatThrownBy(() -> SysFs.hostMask("1" + ",00000000".repeat(256)))
        .isInstanceOf(CpuSetFormatException.class)
        .hasMessageContaining("cpu 8192 out of range");
  }
}
