package io.github.affinitykit.core.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.Linux;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.Fixtures;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class HostCpusTest {
  @TempDir Path tmp;

  @Test
  void shouldSeeTheSeedMachinesIsolationWhenProbingTheE5Fixture() {
    HostCpus h = HostCpus.probe(Fixtures.root(Fixtures.E5));

    assertThat(h.allowed()).hasToString("0-18");
    assertThat(h.allowedKnown()).isTrue();
    assertThat(h.allowedIsIsolationDefault()).isTrue();
    assertThat(h.usable()).hasToString("0-23");
    assertThat(h.reachable()).hasToString("0-23");
    assertThat(h.isolated()).hasToString("19-23");
    assertThat(h.nohzFull()).hasToString("19-23");
    assertThat(h.exclusive()).hasToString("19-23");
    assertThat(h.isolatedWithSharedCore()).hasToString("19-23");
    assertThat(h.root()).isEqualTo(Fixtures.root(Fixtures.E5));
    assertThat(h.refused()).isEmpty();
    assertThat(h.cgroup().version()).isEqualTo(2);
    assertThat(h.cgroup().effective()).hasToString("0-23");
  }

  @Test
  void shouldPoolTheIsolatedCpusOnTheE5Fixture() {
    HostCpus h = HostCpus.probe(Fixtures.root(Fixtures.E5));

    CpuPool pool = h.pool(); // no override configured in the test JVM
    assertThat(pool.cpus()).hasToString("19-23");
    assertThat(pool.housekeeping()).hasToString("0-18");
    assertThat(pool.source()).isEqualTo(CpuPool.Source.ISOLATED);
    assertThat(pool.reason()).contains("every one shares its core with a non-isolated CPU");
  }

  @Test
  void shouldSayWholeIsolatedCoresComeFirstAndTheHalfIsolatedCoreLast(@TempDir Path root) {
    // 4 cores x 2 threads, siblings n and n+4: isolating 1-3,6-7 leaves 1's sibling 5 busy
    HostCpus h = FakeHost.create(root, 8, 2).isolated("1-3,6-7").probe();

    assertThat(h.pool().cpus()).hasToString("1-3,6-7");
    assertThat(h.pool().reason()).contains("whole isolated cores 2-3,6-7 first, 1 (core shared");
  }

  @Test
  void shouldKeepTheFirstCoreForHousekeepingWhenNothingIsIsolated() {
    HostCpus h = FakeHost.create(tmp, 4, 1).probe();

    assertThat(h.pool().cpus()).hasToString("1-3");
    assertThat(h.pool().housekeeping()).hasToString("0");
    assertThat(h.pool().source()).isEqualTo(CpuPool.Source.ALL_BUT_HOUSEKEEPING);
  }

  @Test
  void shouldKeepTheWholeFirstCoreWithItsSiblingWhenSmt() {
    HostCpus h = FakeHost.create(tmp, 8, 2).probe();

    assertThat(h.pool().housekeeping()).hasToString("0,4");
    assertThat(h.pool().cpus()).hasToString("1-3,5-7");
  }

  @Test
  void shouldPinNothingAndSayWhyWhenTheHostHasOneCore() {
    HostCpus h = FakeHost.create(tmp, 2, 2).probe();

    assertThat(h.pool().isEmpty()).isTrue();
    assertThat(h.pool().source()).isEqualTo(CpuPool.Source.EMPTY);
    assertThat(h.pool().reason()).contains("only one core");
  }

  @Test
  void shouldStayInsideTasksetWhenTheMaskIsRestricted() {
    HostCpus h = FakeHost.create(tmp, 4, 1).allowed("2-3").probe();

    assertThat(h.reachable()).hasToString("2-3");
    assertThat(h.pool().cpus()).hasToString("3");
    assertThat(h.pool().housekeeping()).hasToString("2");
  }

  @Test
  void shouldNeverHandOutCpusOutsideTheCgroupWhenInAContainer() {
    HostCpus h = FakeHost.create(tmp, 4, 1).cgroupV2("/kubepods/pod1", "0-1").probe();

    assertThat(h.cgroup().path()).isEqualTo("/kubepods/pod1");
    assertThat(h.usable()).hasToString("0-1");
    assertThat(h.reachable()).hasToString("0-1");
    assertThat(h.pool().cpus()).hasToString("1");
  }

  @Test
  void shouldPreferIsolatedCpusWhenTheMaskIsTheIsolcpusDefault() {
    HostCpus h = FakeHost.create(tmp, 4, 1).isolated("3").allowed("0-2").probe();

    assertThat(h.allowedIsIsolationDefault()).isTrue();
    assertThat(h.pool().cpus()).hasToString("3");
    assertThat(h.pool().housekeeping()).hasToString("0-2");
  }

  @Test
  void shouldReportIsolatedCpusTheProcessCannotReach() {
    HostCpus h = FakeHost.create(tmp, 4, 1).isolated("3").allowed("0-1").probe();

    assertThat(h.allowedIsIsolationDefault()).isFalse();
    assertThat(h.exclusive().isEmpty()).isTrue();
    assertThat(h.pool().cpus()).hasToString("1");
  }

  @Test
  void shouldUseAnOverrideInsideTheReachableCpus() {
    HostCpus h = FakeHost.create(tmp, 4, 1).probe();

    CpuPool pool = h.pool(CpuSet.of(0, 2));
    assertThat(pool.cpus()).hasToString("0,2");
    assertThat(pool.housekeeping()).hasToString("1,3");
    assertThat(pool.source()).isEqualTo(CpuPool.Source.OVERRIDE);
    CpuPool fromProperty =
        PoolPolicy.resolve(h, Optional.of(new PoolPolicy.Override(" 1-2 ", "-Daffinitykit.pool")));
    assertThat(fromProperty.cpus()).hasToString("1-2");
    assertThat(fromProperty.reason()).contains("-Daffinitykit.pool");
  }

  @Test
  void shouldHonourOpenHftsReservedMaskOnlyWhenNoPoolIsSet() {
    HostCpus h = FakeHost.create(tmp, 24, 1).probe();
    assertThat(PoolPolicy.hexMask("ff00")).hasToString("8-15");
    assertThat(PoolPolicy.hexMask("0x1_0000_0000_0000_0003".replace("_", "")))
        .hasToString("0-1,64");
    assertThatThrownBy(() -> PoolPolicy.hexMask("0-3"))
        .hasMessage(
            "\"0-3\" (expected: a hexadecimal CPU mask, lowest CPUs last, e.g. ff00 = 8-15)");

    assumeTrue(System.getenv(PoolPolicy.ENV) == null, "AFFINITYKIT_POOL is set: it wins");
    String old = System.getProperty(PoolPolicy.OPENHFT);
    System.setProperty(PoolPolicy.OPENHFT, "f0");
    try {
      Optional<PoolPolicy.Override> o = PoolPolicy.configuredOverride();
      CpuPool pool = PoolPolicy.resolve(h, o);
      assertThat(pool.cpus()).hasToString("4-7");
      assertThat(pool.reason()).contains("-Daffinity.reserved (OpenHFT's mask");
      System.setProperty(PoolPolicy.PROPERTY, "2"); // ours wins over OpenHFT's
      assertThat(PoolPolicy.resolve(h, PoolPolicy.configuredOverride()).cpus()).hasToString("2");
      System.clearProperty(PoolPolicy.PROPERTY);
      System.setProperty(PoolPolicy.OPENHFT, "zz");
      assertThatThrownBy(() -> PoolPolicy.resolve(h, PoolPolicy.configuredOverride()))
          .hasMessageStartingWith(
              "-Daffinity.reserved (OpenHFT's mask: affinitykit.pool unset): \"zz\"");
    } finally {
      System.clearProperty(PoolPolicy.PROPERTY);
      if (old == null) {
        System.clearProperty(PoolPolicy.OPENHFT);
      } else {
        System.setProperty(PoolPolicy.OPENHFT, old);
      }
    }
  }

  @Test
  void shouldRefuseAPoolThatSharesACpuWithHousekeeping() {
    assertThatThrownBy(
            () ->
                new CpuPool(
                    CpuSet.of(1, 2), CpuSet.of(0, 2), CpuPool.Source.OVERRIDE, "pool set by test"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("housekeeping: 0,2 (expected: no CPU of the pool 1-2)");
    assertThat(new CpuPool(CpuSet.of(1), CpuSet.of(0), CpuPool.Source.OVERRIDE, "ok").isEmpty())
        .isFalse();
  }

  @Test
  void shouldRejectAnOverrideNamingTheValueAndTheRule() {
    HostCpus h = FakeHost.create(tmp, 4, 1).allowed("0-1").probe();

    assertThatThrownBy(() -> h.pool(CpuSet.of(1, 3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1,3")
        .hasMessageContaining("expected: a non-empty subset of the CPUs this process may use: 0-1")
        .hasMessageContaining("not usable: 3");
    assertThatThrownBy(() -> h.pool(CpuSet.empty())).hasMessageContaining("\"\"");
    assertThatThrownBy(
            () ->
                PoolPolicy.resolve(
                    h, Optional.of(new PoolPolicy.Override("1-x", "AFFINITYKIT_POOL"))))
        .hasMessageStartingWith("AFFINITYKIT_POOL: cpu list \"1-x\"");
  }

  @Test
  void shouldReadTheOverrideFromTheSystemProperty() {
    String old = System.getProperty(PoolPolicy.PROPERTY);
    System.setProperty(PoolPolicy.PROPERTY, "2");
    try {
      assertThat(FakeHost.create(tmp, 4, 1).probe().pool().cpus()).hasToString("2");
    } finally {
      if (old == null) {
        System.clearProperty(PoolPolicy.PROPERTY);
      } else {
        System.setProperty(PoolPolicy.PROPERTY, old);
      }
    }
  }

  @Test
  void shouldReadTheOverrideOnceAndFailAtProbeTimeWhenItIsBad() {
    String old = System.getProperty(PoolPolicy.PROPERTY);
    FakeHost fake = FakeHost.create(tmp, 4, 1);
    try {
      System.setProperty(PoolPolicy.PROPERTY, "2");
      HostCpus h = fake.probe();
      System.setProperty(PoolPolicy.PROPERTY, "1-x"); // later changes do not reach a snapshot
      assertThat(h.pool().cpus()).hasToString("2");

      assertThatThrownBy(fake::probe)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("-Daffinitykit.pool: cpu list \"1-x\"");
      HostCpus diagnosed = HostCpus.diagnose(tmp);
      assertThat(diagnosed.topology().known().size()).isEqualTo(4);
      assertThatThrownBy(diagnosed::pool).hasMessageStartingWith("-Daffinitykit.pool");
    } finally {
      if (old == null) {
        System.clearProperty(PoolPolicy.PROPERTY);
      } else {
        System.setProperty(PoolPolicy.PROPERTY, old);
      }
    }
  }

  @Test
  void shouldAssumeTheUsableCpusWhenTheMaskCannotBeRead() {
    HostCpus h = HostCpus.probe(Fixtures.root("2arm-2c"));

    assertThat(h.allowedKnown()).isFalse();
    assertThat(h.allowed()).isEqualTo(h.usable());
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldDescribeThisHostWhenProbingTheLiveSystem() {
    HostCpus h = HostCpus.probe();

    assertThat(h.allowedKnown()).isTrue();
    assertThat(h.reachable().isEmpty()).isFalse();
    assertThat(h.topology().online().containsAll(h.reachable())).isTrue();
    assertThat(h.allowed()).isEqualTo(CpuSet.parse(Linux.cpusAllowedList()));
  }

  @Test
  void shouldTreatItsOwnIsolatedPartitionAsIsolatedAndKeepOneCoreForTheJvm(@TempDir Path root) {
    // kernel < 6.8: no root cpuset.cpus.isolated, only the process's own partition says isolated
    HostCpus h =
        FakeHost.create(root, 8, 2)
            .cgroupV2("/iso", "2-3,6-7")
            .file("sys/fs/cgroup/iso/cpuset.cpus.partition", "isolated")
            .probe();

    assertThat(h.isolatedCpus()).hasToString("2-3,6-7");
    CpuPool pool = h.pool();
    assertThat(pool.source()).isEqualTo(CpuPool.Source.ISOLATED);
    assertThat(pool.cpus()).hasToString("3,7");
    assertThat(pool.housekeeping()).hasToString("2,6");
    assertThat(pool.reason()).contains("every reachable CPU is isolated");
  }
}
