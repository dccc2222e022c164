package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NoopAffinityBackendTest extends AffinityBackendContract {
  @Override
  AffinityBackend newBackend() {
    return new NoopAffinityBackend("test: no pinning here");
  }

  @Test
  void shouldBeUnsupportedWithItsReason() {
    AffinityBackend backend = newBackend();
    assertThat(backend.isSupported()).isFalse();
    assertThat(backend.reason()).isEqualTo("test: no pinning here");
    assertThat(backend).hasToString("NoopAffinityBackend[test: no pinning here]");
  }

  @Test
  void shouldRequireAReason() {
    assertThatThrownBy(() -> new NoopAffinityBackend(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("reason");
    assertThatThrownBy(() -> new NoopAffinityBackend(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("reason: blank (expected: why pinning is unsupported)");
  }

  @Test
  void shouldDetectNoopOffLinux() {
    AffinityBackend backend = Backends.detect("Mac OS X");
    assertThat(backend.isSupported()).isFalse();
    assertThat(backend.reason()).isEqualTo("os.name Mac OS X: only Linux is supported");
  }

  @Test
  void shouldNameTheCauseOfANativeFailure() {
    Error init = new ExceptionInInitializerError(new IllegalCallerException("denied"));
    assertThat(Backends.withCause(init))
        .isEqualTo(
            "java.lang.ExceptionInInitializerError caused by java.lang.IllegalCallerException:"
                + " denied");
    assertThat(Backends.withCause(new UnsatisfiedLinkError("x")))
        .isEqualTo("java.lang.UnsatisfiedLinkError: x");
  }
}
