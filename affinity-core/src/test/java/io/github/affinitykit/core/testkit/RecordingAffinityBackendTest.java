package io.github.affinitykit.core.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.AffinityBackendContract;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.os.AffinityException;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend.Call;
import org.junit.jupiter.api.Test;

public class RecordingAffinityBackendTest extends AffinityBackendContract {
  @Override
  public AffinityBackend newBackend() {
    return new RecordingAffinityBackend(CpuSet.of(0, 1));
  }

  @Test
  public void shouldRecordCallsWithTheResolvedThreadId() {
    RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.range(0, 3));
    int me = backend.currentThreadId();
    backend.setAffinity(0, CpuSet.of(2, 3));
    backend.getAffinity(me);
    assertThat(backend.calls())
        .containsExactly(
            new Call("setAffinity", me, CpuSet.of(2, 3)),
            new Call("getAffinity", me, CpuSet.empty()));
    assertThat(backend.maskOf(me)).isEqualTo(CpuSet.of(2, 3));
    assertThat(backend.currentCpu()).isEqualTo(2);
    backend.clearCalls();
    assertThat(backend.calls()).isEmpty();
  }

  @Test
  public void shouldFailTheNextSetOnceWhenTold() {
    RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.of(0, 1));
    backend.failNextSetAffinity(1);
    assertThatThrownBy(() -> backend.setAffinity(0, CpuSet.of(1)))
        .isInstanceOf(AffinityException.class)
        .hasMessage("sched_setaffinity(tid 0, 1): EPERM (1) Operation not permitted");
    assertThat(backend.getAffinity(0)).isEqualTo(CpuSet.of(0, 1));
    backend.setAffinity(0, CpuSet.of(1));
    assertThat(backend.getAffinity(0)).isEqualTo(CpuSet.of(1));
    assertThat(backend.calls()).hasSize(4);
  }

  @Test
  public void shouldRejectBadArguments() {
    assertThatThrownBy(() -> new RecordingAffinityBackend(CpuSet.empty()))
        .isInstanceOf(IllegalArgumentException.class);
    RecordingAffinityBackend backend = new RecordingAffinityBackend(CpuSet.of(0));
    assertThatThrownBy(() -> backend.failNextSetAffinity(0)).hasMessage("errno: 0 (expected: > 0)");
    assertThatThrownBy(() -> backend.maskOf(7))
        .hasMessage("tid: 7 (expected: a simulated thread id)");
    assertThat(backend.hostCpus()).isEqualTo(CpuSet.of(0));
    assertThat(backend.reason()).contains("simulated");
    assertThat(backend.toString()).startsWith("RecordingAffinityBackend[0, ");
  }

  @Test
  public void shouldDescribeUnknownErrnos() {
    AffinityException e = new AffinityException("sched_getaffinity", 5, CpuSet.empty(), 999);
    assertThat(e).hasMessage("sched_getaffinity(tid 5): errno 999 (unknown)");
    assertThat(e.errnoName()).isEqualTo("errno 999");
  }
}
