package io.github.affinitykit.core.os;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.ChildJvm;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** {@link AffinityBackend#detect()} in a JVM where JNA cannot load its native library. */
@EnabledOnOs(OS.LINUX)
class DetectWithoutJnaIT {
  @TempDir Path tmp;

  @Test
  @Timeout(value = 60, threadMode = ThreadMode.SEPARATE_THREAD)
  void shouldFallBackToNoopWithTheReasonWhenJnaCannotLoad() throws Exception {
    List<String> noJna = List.of("-Djna.nosys=true", "-Djna.noclasspath=true");
    try (ChildJvm child = ChildJvm.start(tmp, noJna, DetectMain.class)) {
      String[] words = child.awaitLine("SUPPORTED");
      assertThat(words[0]).as(child.stderr()).isEqualTo("false");
      assertThat(String.join(" ", words))
          .contains("JNA or libc unavailable: java.lang.UnsatisfiedLinkError");
    }
    try (ChildJvm child = ChildJvm.start(tmp, List.of(), DetectMain.class)) {
      assertThat(child.awaitLine("SUPPORTED")[0]).as(child.stderr()).isEqualTo("true");
    }
  }
}
