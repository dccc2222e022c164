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

/**
 * {@link AffinityBackend#detect()} in a JVM where JNA cannot load its native library: JDK 17-21
 * cannot pin and say why and how to fix it, JDK 22+ pins through {@code java.lang.foreign}.
 */
@EnabledOnOs(OS.LINUX)
class DetectWithoutJnaIT {
  @TempDir Path tmp;

  @Test
  @Timeout(value = 90, threadMode = ThreadMode.SEPARATE_THREAD)
  void shouldFallBackToNoopWithTheReasonWhenJnaCannotLoadBeforeJdk22AndNotNeedItAfter()
      throws Exception {
    List<String> noJna = List.of("-Djna.nosys=true", "-Djna.noclasspath=true");
    try (ChildJvm child = ChildJvm.start(tmp, noJna, DetectMain.class)) {
      String[] words = child.awaitLine("SUPPORTED");
      String reason = String.join(" ", words);
      if (Runtime.version().feature() < 22) {
        assertThat(words[0]).as(child.stderr()).isEqualTo("false");
        assertThat(reason).contains("JNA or libc unavailable: java.lang.UnsatisfiedLinkError");
      } else {
        assertThat(words[0]).as(child.stderr()).isEqualTo("true");
        assertThat(reason).contains("Linux: java.lang.foreign (JDK ");
      }
    }
    List<String> forcedJna =
        List.of("-Djna.nosys=true", "-Djna.noclasspath=true", "-Daffinitykit.native=jna");
    try (ChildJvm child = ChildJvm.start(tmp, forcedJna, DetectMain.class)) {
      String[] words = child.awaitLine("SUPPORTED");
      assertThat(words[0]).as(child.stderr()).isEqualTo("false");
      assertThat(String.join(" ", words))
          .contains("JNA or libc unavailable: java.lang.UnsatisfiedLinkError")
          .contains("-Djna.boot.library.path=");
    }
    try (ChildJvm child = ChildJvm.start(tmp, List.of(), DetectMain.class)) {
      assertThat(child.awaitLine("SUPPORTED")[0]).as(child.stderr()).isEqualTo("true");
    }
  }
}
