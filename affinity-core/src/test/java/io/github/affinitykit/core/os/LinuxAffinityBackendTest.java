package io.github.affinitykit.core.os;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityBackendContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The backend contract against the real kernel, as {@link AffinityBackend#detect()} finds it. */
@EnabledOnOs(OS.LINUX)
public class LinuxAffinityBackendTest extends AffinityBackendContract {
  @Override
  public AffinityBackend newBackend() {
    return AffinityBackend.detect();
  }

  @Test
  public void shouldDetectTheJnaBackendOnLinux() {
    AffinityBackend backend = AffinityBackend.detect();
    assertThat(backend.isSupported()).as(backend.reason()).isTrue();
    assertThat(backend).isInstanceOf(LinuxAffinityBackend.class);
    assertThat(backend.reason()).startsWith("Linux: JNA ").contains("sched_setaffinity");
  }
}
