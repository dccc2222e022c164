package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The backend contract against the real kernel, as {@link AffinityBackend#detect()} finds it. */
@EnabledOnOs(OS.LINUX)
class LinuxAffinityBackendTest extends AffinityBackendContract {
  @Override
  AffinityBackend newBackend() {
    return AffinityBackend.detect();
  }

  @Test
  void shouldDetectTheJnaBackendOnLinux() {
    AffinityBackend backend = AffinityBackend.detect();
    assertThat(backend.isSupported()).as(backend.reason()).isTrue();
    assertThat(backend).isInstanceOf(LinuxAffinityBackend.class);
    assertThat(backend.reason()).startsWith("Linux: JNA ").contains("sched_setaffinity");
  }
}
