package io.github.affinitykit.core.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.AffinityBackendContract;
import io.github.affinitykit.core.internal.natives.NativeLayer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The backend contract on the {@code java.lang.foreign} layer: on JDK 22+ it must pin (it is
 * skipped before, where there is no such layer: {@code NativeLayerTest} checks the reason).
 */
@EnabledOnOs(OS.LINUX)
public class FfmAffinityBackendTest extends AffinityBackendContract {
  @Override
  public AffinityBackend newBackend() {
    assumeTrue(Runtime.version().feature() >= 22, "java.lang.foreign needs JDK 22+");
    AffinityBackend backend =
        LinuxAffinityBackend.on(NativeLayer.load("ffm", "Linux", System.getProperty("os.arch")));
    assertThat(backend.isSupported()).as(backend.reason()).isTrue();
    return backend;
  }

  @Test
  public void shouldPinThroughTheForeignFunctionApi() {
    assertThat(newBackend().reason())
        .startsWith("Linux: java.lang.foreign (JDK " + Runtime.version().feature() + ")")
        .endsWith("sched_getcpu, gettid");
  }
}
