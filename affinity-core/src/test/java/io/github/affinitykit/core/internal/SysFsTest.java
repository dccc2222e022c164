package io.github.affinitykit.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.TestTree;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.testkit.FakeHost;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SysFsTest {
  @TempDir Path dir;

  @Test
  void shouldStripTrailingNulAndNewlineWhenReadingBitmapFiles() throws Exception {
    Files.write(dir.resolve("list"), "32-63\n\0".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    SysFs fs = new SysFs(dir);

    assertThat(fs.read("/list")).contains("32-63");
    assertThat(fs.cpus("/list")).contains(CpuSet.range(32, 63));
  }

  @Test
  void shouldReadAnUnallocatedCpumaskAsNoCpuWhenTheKernelPrintsNull() {
    // Debian 12's kernel 6.1 with CONFIG_NO_HZ_FULL=y and no nohz_full= on its command line
    TestTree.at(dir).file("sys/devices/system/cpu/nohz_full", "  (null)\n");

    assertThat(new SysFs(dir).cpuList("/sys/devices/system/cpu/nohz_full"))
        .contains(CpuSet.empty());
    HostCpus host =
        FakeHost.create(dir.resolve("host"), 2, 1)
            .file("sys/devices/system/cpu/nohz_full", "  (null)\n")
            .probe();
    assertThat(host.nohzFull().isEmpty()).isTrue();
  }

  @Test
  void shouldParseByNameWhenReadingCpuSets() {
    TestTree.at(dir)
        .file("a/core_cpus_list", "0-1")
        .file("a/core_cpus", "3")
        .file("a/bad_list", "1-0")
        .file("a/bad", "xyz");
    SysFs fs = new SysFs(dir);

    assertThat(fs.cpus("/a/core_cpus_list")).contains(CpuSet.range(0, 1));
    assertThat(fs.cpus("/a/core_cpus")).contains(CpuSet.range(0, 1));
    assertThat(fs.cpus("/a/bad_list")).isEmpty();
    assertThat(fs.cpus("/a/bad")).isEmpty();
    assertThat(fs.cpus("/a/missing")).isEmpty();
    assertThat(fs.firstCpus("/a", "missing", "bad", "core_cpus")).contains(CpuSet.range(0, 1));
    assertThat(fs.firstCpus("/a", "missing")).isEmpty();
  }

  @Test
  void shouldTreatAPathAsAbsentWhenANameReadFromAKernelFileHoldsANul() {
    TestTree.at(dir).file("a/b", "1");
    SysFs fs = new SysFs(dir);

    // a cgroup path or mount point with a NUL (fuzzer-found): InvalidPathException before the fix
    assertThat(fs.read("/a/b\0")).isEmpty();
    assertThat(fs.exists("/a\0/b")).isFalse();
    assertThat(fs.list("/a\0")).isEmpty();
    assertThat(fs.read("/a/b")).contains("1");
  }

  @Test
  void shouldReturnTheNumberWhenANameIsPrefixAndDigits() {
    assertThat(SysFs.index("cpu12", "cpu")).isEqualTo(12);
    assertThat(SysFs.index("node0", "node")).isZero();
    assertThat(SysFs.index("cpufreq", "cpu")).isEqualTo(-1);
    assertThat(SysFs.index("cpu", "cpu")).isEqualTo(-1);
    assertThat(SysFs.index("index3", "cpu")).isEqualTo(-1);
    assertThat(SysFs.index("cpu1234567890", "cpu")).isEqualTo(-1);
  }
}
