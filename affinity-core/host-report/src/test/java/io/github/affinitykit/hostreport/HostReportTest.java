package io.github.affinitykit.hostreport;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.Fixtures;
import io.github.affinitykit.hostreport.HostWarning.Kind;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report read beside core's snapshot: command line, IRQs, and the warnings, in their order. */
class HostReportTest {
  @TempDir Path tmp;

  private static HostReport report(HostCpus host) {
    return HostReport.of(host);
  }

  private static List<Kind> kinds(HostReport r) {
    return r.warnings().stream().map(HostWarning::kind).toList();
  }

  private static String message(HostReport r, Kind kind) {
    return r.warnings().stream()
        .filter(w -> w.kind() == kind)
        .map(HostWarning::message)
        .reduce((a, b) -> a + "\n" + b)
        .orElseThrow();
  }

  @Test
  void shouldReadTheCommandLineAndIrqsOfTheE5FixtureBesideItsSnapshot() {
    HostCpus host = HostCpus.probe(Fixtures.root(Fixtures.E5));
    HostReport r = report(host);

    assertThat(r.host()).isSameAs(host);
    assertThat(r.cmdline().isolcpusFlags()).containsExactlyInAnyOrder("managed_irq", "domain");
    assertThat(r.cmdline().rcuNocbs()).hasToString("19-23");
    assertThat(r.cmdline().irqAffinity()).hasToString("0-18");
    assertThat(KernelCmdline.of(host)).isEqualTo(r.cmdline());
    assertThat(r.irqs()).extracting(IrqAffinity::irq).containsExactly(0, 8, 9, 24, 25, 26);
    assertThat(r.irqs().get(3).effective()).hasToString("5");
    assertThat(r.irqs().get(3).affinity()).hasToString("0-18");
    assertThat(r.irqDefault()).hasToString("0-18");
    assertThat(r.refused()).isEmpty();
  }

  @Test
  void shouldWarnAboutTheBusySiblingsOfTheE5FixturesIsolatedCpusFirst() {
    HostReport r = report(HostCpus.probe(Fixtures.root(Fixtures.E5)));

    assertThat(kinds(r))
        .contains(Kind.ISOLATED_SIBLING_NOT_ISOLATED)
        .doesNotContain(Kind.NO_ISOLATION, Kind.IRQ_ON_ISOLATED, Kind.MASK_RESTRICTED);
    assertThat(r.warnings().get(0).message()).contains("19-23").contains("7-11");
  }

  @Test
  void shouldWarnOnlyThatNothingIsIsolatedOnAPlainHost() {
    assertThat(kinds(report(FakeHost.create(tmp, 4, 1).probe())))
        .containsExactly(Kind.NO_ISOLATION);
  }

  @Test
  void shouldWarnThatThePoolIsEmptyWhenTheHostHasOneCore() {
    assertThat(kinds(report(FakeHost.create(tmp, 2, 2).probe()))).contains(Kind.POOL_EMPTY);
  }

  @Test
  void shouldNameTheMaskWhenTasksetRestrictsTheProcess() {
    HostReport r = report(FakeHost.create(tmp, 4, 1).allowed("2-3").probe());

    assertThat(message(r, Kind.MASK_RESTRICTED)).contains("2-3").doesNotContain("\n");
  }

  @Test
  void shouldNameTheCgroupAndNotTheMaskInAContainer() {
    HostReport r = report(FakeHost.create(tmp, 4, 1).cgroupV2("/kubepods/pod1", "0-1").probe());

    assertThat(kinds(r)).contains(Kind.CGROUP_RESTRICTED).doesNotContain(Kind.MASK_RESTRICTED);
  }

  @Test
  void shouldSkipIrqDirectoriesWhenTheirNameIsNotAnIrqNumber() {
    HostCpus h =
        FakeHost.create(tmp, 2, 1)
            .file("proc/irq/99999999999/smp_affinity_list", "0") // NumberFormatException before
            .file("proc/irq/\u0663/smp_affinity_list", "0") // a non-ASCII digit
            .file("proc/irq/7/smp_affinity_list", "1")
            .probe();

    assertThat(report(h).irqs()).extracting(IrqAffinity::irq).containsExactly(7);
  }

  @Test
  void shouldWarnAboutIrqsDeliveredToIsolatedCpus() {
    HostCpus h =
        FakeHost.create(tmp, 4, 1)
            .isolated("3")
            .allowed("0-2")
            .file("proc/irq/30/smp_affinity_list", "0-3")
            .file("proc/irq/30/effective_affinity_list", "3")
            .file("proc/irq/31/smp_affinity_list", "0")
            .probe();
    HostReport r = report(h);

    assertThat(r.irqs()).hasSize(2);
    assertThat(r.irqs().get(1).effective()).hasToString("0"); // falls back to smp_affinity
    assertThat(kinds(r)).contains(Kind.IRQ_ON_ISOLATED).doesNotContain(Kind.NO_ISOLATION);
    assertThat(message(r, Kind.IRQ_ON_ISOLATED)).contains("30->3").doesNotContain("\n");
  }

  @Test
  void shouldWarnAboutIsolatedCpusTheProcessCannotReach() {
    HostReport r = report(FakeHost.create(tmp, 4, 1).isolated("3").allowed("0-1").probe());

    assertThat(kinds(r)).contains(Kind.ISOLATED_UNREACHABLE, Kind.MASK_RESTRICTED);
  }

  @Test
  void shouldWarnAboutAnUnparsableKernelCommandLine() {
    HostReport r =
        report(FakeHost.create(tmp, 4, 1).file("proc/cmdline", "ro nohz_full=1-x").probe());

    assertThat(kinds(r)).contains(Kind.CMDLINE);
  }
}
