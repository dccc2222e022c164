package io.github.affinitykit.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.audit.CpuVerdict.Intruder;
import io.github.affinitykit.audit.CpuVerdict.Kind;
import io.github.affinitykit.audit.CpuVerdict.Verdict;
import io.github.affinitykit.audit.internal.LiveAuditor;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuAuditor;
import io.github.affinitykit.core.ExclusivityAudit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.testkit.FakeAudit;
import io.github.affinitykit.core.testkit.FakeHost;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * This artifact as core sees it: {@link ServiceLoader} finds its {@link CpuAuditor}, a kit's audit
 * is a {@link CpuAudit}, and a {@code CpuAudit} answers core's {@link ExclusivityAudit} with each
 * CPU's verdict and, in one line, its intruders or notes.
 */
@Timeout(30)
class LiveAuditorTest {
  private static final Duration WINDOW = Duration.ofMillis(20);

  @TempDir Path root;

  @Test
  void shouldBeTheAuditorServiceLoaderFindsAndTheKitsAudit() {
    assertThat(ServiceLoader.load(CpuAuditor.class).findFirst())
        .get()
        .isInstanceOf(LiveAuditor.class);
    FakeHost.create(root, 4, 1);
    AffinityKit kit =
        AffinityKit.create(
            HostCpus.probe(root),
            new RecordingAffinityBackend(CpuSet.range(0, 3)),
            CpuReservations.inDirectory(root.resolve("locks")));
    ExclusivityAudit audit = kit.audit(CpuSet.of(1), WINDOW);
    assertThat(audit).isInstanceOf(CpuAudit.class);
    assertThat(audit.audited()).isEqualTo(CpuSet.of(1));
    assertThat(audit.window()).isEqualTo(WINDOW);
  }

  @Test
  void shouldAnswerCoreWithTheVerdictsAndNameTheFirstFiveIntruders() {
    List<Intruder> seven =
        IntStream.range(0, 7)
            .mapToObj(i -> new Intruder(Kind.RAN_THERE, 300 + i, 300 + i, "t" + i, "1 ms"))
            .toList();
    Intruder irq = new Intruder(Kind.IRQ, -1, -1, "45", "3 irqs");
    ExclusivityAudit audit =
        CpuAudit.from(
            WINDOW,
            List.of(
                new CpuVerdict(1, Verdict.EXCLUSIVE, List.of(), List.of("kworker/1 stays")),
                new CpuVerdict(2, Verdict.INTRUDED, seven, List.of()),
                new CpuVerdict(3, Verdict.INTRUDED, List.of(irq), List.of()),
                new CpuVerdict(4, Verdict.UNKNOWN, List.of(), List.of("cpu 4 offline", "no"))));
    assertThat(audit.audited()).isEqualTo(CpuSet.range(1, 4));
    assertThat(audit.exclusive()).isEqualTo(CpuSet.of(1));
    assertThat(audit.intruded()).isEqualTo(CpuSet.of(2, 3));
    assertThat(audit.detail(1)).isEqualTo("kworker/1 stays");
    assertThat(audit.detail(2))
        .isEqualTo(
            "t0 (pid 300): ran_there, t1 (pid 301): ran_there, t2 (pid 302): ran_there,"
                + " t3 (pid 303): ran_there, t4 (pid 304): ran_there and 2 more");
    assertThat(audit.detail(3)).isEqualTo("45: irq");
    assertThat(audit.detail(4)).isEqualTo("cpu 4 offline; no");
    assertThatThrownBy(() -> audit.detail(5)).hasMessage("cpu: 5 (expected: an audited CPU)");
  }

  @Test
  void shouldRebuildTheVerdictsOfAnAuditItDidNotMakeAndKeepItsOwn() {
    ExclusivityAudit core =
        new FakeAudit(
            WINDOW,
            Map.of(
                1,
                FakeAudit.Verdict.EXCLUSIVE,
                2,
                FakeAudit.Verdict.INTRUDED,
                3,
                FakeAudit.Verdict.UNKNOWN),
            Map.of(2, "bash (pid 300): ran_there", 3, "no procfs"));
    CpuAudit audit = CpuAudit.of(core);
    assertThat(audit.window()).isEqualTo(WINDOW);
    assertThat(audit.verdicts())
        .extracting(CpuVerdict::cpu, CpuVerdict::verdict, CpuVerdict::notes)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1, Verdict.EXCLUSIVE, List.of()),
            org.assertj.core.groups.Tuple.tuple(
                2, Verdict.INTRUDED, List.of("bash (pid 300): ran_there")),
            org.assertj.core.groups.Tuple.tuple(3, Verdict.UNKNOWN, List.of("no procfs")));
    assertThat(CpuAudit.of(audit)).isSameAs(audit);
  }
}
