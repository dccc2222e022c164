package io.github.affinitykit.core.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.AffinityBackendContract;
import io.github.affinitykit.core.internal.natives.NativeLayer;
import org.junit.jupiter.api.Test;

public class NoopAffinityBackendTest extends AffinityBackendContract {
  @Override
  public AffinityBackend newBackend() {
    return AffinityBackend.unsupported("test: no pinning here");
  }

  @Test
  public void shouldBeUnsupportedWithItsReason() {
    AffinityBackend backend = newBackend();
    assertThat(backend.isSupported()).isFalse();
    assertThat(backend.reason()).isEqualTo("test: no pinning here");
    assertThat(backend).hasToString("NoopAffinityBackend[test: no pinning here]");
  }

  @Test
  public void shouldRequireAReason() {
    assertThatThrownBy(() -> AffinityBackend.unsupported(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("reason");
    assertThatThrownBy(() -> AffinityBackend.unsupported(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("reason: blank (expected: why pinning is unsupported)");
  }

  @Test
  public void shouldDetectNoopOffLinux() {
    AffinityBackend backend =
        LinuxAffinityBackend.on(NativeLayer.load("auto", "Mac OS X", "x86_64"));
    assertThat(backend.isSupported()).isFalse();
    assertThat(backend.reason()).isEqualTo("os.name Mac OS X: only Linux is supported");
  }

  @Test
  public void shouldNameTheCauseOfANativeFailure() {
    Error init = new ExceptionInInitializerError(new IllegalCallerException("denied"));
    assertThat(NativeLayer.withCause(init))
        .isEqualTo(
            "java.lang.ExceptionInInitializerError caused by java.lang.IllegalCallerException:"
                + " denied");
    assertThat(NativeLayer.withCause(new UnsatisfiedLinkError("x")))
        .isEqualTo("java.lang.UnsatisfiedLinkError: x");
  }
}
