package io.github.affinitykit.core.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.internal.SysFs;
import io.github.affinitykit.core.testkit.FakeHostFiles;
import io.github.affinitykit.core.testkit.Fixtures;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CgroupProbeTest {
  @TempDir Path tmp;

  private static CgroupCpuset probe(Path root) {
    return new CgroupProbe(new SysFs(root)).probe();
  }

  @Test
  void shouldReadCgroupV2AtTheRootWhenTheProcessIsInTheRootCgroup() {
    CgroupCpuset c = probe(Fixtures.root(Fixtures.E5));

    assertThat(c.version()).isEqualTo(2);
    assertThat(c.path()).isEqualTo("/");
    assertThat(c.effective()).hasToString("0-23");
    assertThat(c.source()).isEqualTo("/sys/fs/cgroup/cpuset.cpus.effective");
    assertThat(c.isolatedPartitions().isEmpty()).isTrue();
  }

  @Test
  void shouldReadCgroupV1CpusetWhenTheControllerIsBoundToV1() {
    CgroupCpuset c = probe(Fixtures.root("32intel64-2p8co2t+8ve"));

    assertThat(c.version()).isEqualTo(1);
    assertThat(c.effective()).hasToString("0-31");
    assertThat(c.source()).isEqualTo("/sys/fs/cgroup/cpuset/cpuset.effective_cpus");
  }

  @Test
  void shouldReadTheLegacyCpusetFilesystemWithoutPrefix() {
    CgroupCpuset c = probe(Fixtures.root("16amd64-8n2c-cpusets"));

    assertThat(c.version()).isEqualTo(1);
    assertThat(c.path()).isEqualTo("/dummy");
    assertThat(c.effective()).hasToString("0-6,12-15");
  }

  @Test
  void shouldWalkUpToTheNearestCpusetFileAndReadPartitions() {
    new FakeHostFiles(tmp)
        .file("proc/self/mounts", "cgroup2 /sys/fs/cgroup cgroup2 rw 0 0")
        .file("proc/self/cgroup", "0::/rt.slice/app.service")
        .file("sys/fs/cgroup/cpuset.cpus.effective", "0-7")
        .file("sys/fs/cgroup/cpuset.cpus.isolated", "6-7")
        .file("sys/fs/cgroup/rt.slice/cpuset.cpus.effective", "4-7")
        .file("sys/fs/cgroup/rt.slice/cpuset.cpus.partition", "isolated")
        .file("sys/fs/cgroup/rt.slice/app.service/cgroup.procs", "1");

    CgroupCpuset c = probe(tmp);

    assertThat(c.path()).isEqualTo("/rt.slice/app.service");
    assertThat(c.effective()).hasToString("4-7");
    assertThat(c.partition()).isEqualTo("isolated");
    assertThat(c.inIsolatedPartition()).isTrue();
    assertThat(c.isolatedPartitions()).hasToString("6-7");
  }

  @Test
  void shouldUseTheMountRootWhenTheCgroupPathIsOutsideTheNamespace() {
    new FakeHostFiles(tmp)
        .file("proc/self/mounts", "cgroup /sys/fs/cgroup/cpuset cgroup rw,cpuset 0 0")
        .file("proc/self/cgroup", "3:cpuset:/docker/abc")
        .file("sys/fs/cgroup/cpuset/cpuset.cpus", "2-3");

    CgroupCpuset c = probe(tmp);

    assertThat(c.version()).isEqualTo(1);
    assertThat(c.effective()).hasToString("2-3");
  }

  @Test
  void shouldReportNoCgroupWhenNoCpusetIsMounted() {
    CgroupCpuset c = probe(Fixtures.root("2arm-2c"));

    assertThat(c.present()).isFalse();
    assertThat(c).isEqualTo(CgroupCpuset.none());
  }
}
