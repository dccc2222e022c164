package io.github.affinitykit.core.os;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityBackendContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The backend contract against the real kernel, as {@link AffinityBackend#detect()} finds it: on
 * the native layer of the running JDK ({@code java.lang.foreign} on 22+, JNA before).
 */
@EnabledOnOs(OS.LINUX)
public class LinuxAffinityBackendTest extends AffinityBackendContract {
  @Override
  public AffinityBackend newBackend() {
    return AffinityBackend.detect();
  }

  @Test
  public void shouldDetectTheLinuxBackendOnTheLayerOfThisJdk() {
    AffinityBackend backend = AffinityBackend.detect();
    assertThat(backend.isSupported()).as(backend.reason()).isTrue();
    assertThat(backend).isInstanceOf(LinuxAffinityBackend.class);
    String layer = Runtime.version().feature() >= 22 ? "java.lang.foreign (JDK " : "JNA 5.";
    assertThat(backend.reason()).startsWith("Linux: " + layer).contains("sched_setaffinity");
  }
}
