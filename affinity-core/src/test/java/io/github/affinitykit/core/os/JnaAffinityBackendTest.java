package io.github.affinitykit.core.os;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityBackendContract;
import io.github.affinitykit.core.internal.natives.NativeLayer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The backend contract on the JNA layer, whatever the JDK (on 22+ it is chosen only if forced). */
@EnabledOnOs(OS.LINUX)
public class JnaAffinityBackendTest extends AffinityBackendContract {
  @Override
  public AffinityBackend newBackend() {
    return LinuxAffinityBackend.on(NativeLayer.load("jna", "Linux", System.getProperty("os.arch")));
  }

  @Test
  public void shouldPinThroughJna() {
    AffinityBackend backend = newBackend();
    assertThat(backend.isSupported()).as(backend.reason()).isTrue();
    assertThat(backend.reason()).startsWith("Linux: JNA 5.").endsWith("sched_getcpu, gettid");
  }
}
