package io.github.affinitykit.numa.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.internal.natives.LinuxAbi;
import io.github.affinitykit.core.internal.natives.NativeLayer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** How the memory calls follow core's native layer, and how they say what they cannot do. */
class MemoryLayerTest {
  private static final String ARCH = System.getProperty("os.arch");
  private static final int JDK = Runtime.version().feature();

  @Test
  void shouldHaveNoCallsWhereCoreHasNoneAndSayWhy() {
    MemoryLayer none = MemoryLayer.on(NativeLayer.load("auto", "Mac OS X", "aarch64"));
    assertThat(none.calls()).isEmpty();
    assertThat(none.name()).isEqualTo("none");
    assertThat(none).hasToString("MemoryLayer[none, os.name Mac OS X: only Linux is supported]");
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldTakeTheTechnologyCoreTookForEachChoice() {
    MemoryLayer jna = MemoryLayers.load("jna");
    assertThat(jna.why()).isEmpty();
    assertThat(jna).hasToString("MemoryLayer[" + jna.name() + "]");
    MemoryLayer auto = MemoryLayer.on(NativeLayer.load("auto", "Linux", ARCH));
    assertThat(auto.name()).startsWith(JDK < 22 ? "JNA " : "java.lang.foreign (JDK ");
    assertThat(MemoryLayer.system()).isSameAs(MemoryLayer.system());
    assertThat(MemoryLayer.system().name())
        .startsWith(NativeLayer.system().isForeign() ? "java.lang.foreign" : "JNA ");
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldHaveNoMemoryCallsWhereTheSystemCallNumbersAreUnknown() {
    assumeTrue("amd64".equals(ARCH) || "aarch64".equals(ARCH), "JNA loads for this ABI only");
    MemoryLayer layer = MemoryLayer.on(NativeLayer.load("jna", "Linux", "riscv64"));
    assertThat(layer.calls()).isEmpty();
    assertThat(layer.why())
        .isEqualTo("NUMA memory calls: the GENERIC_64 ABI (expected: x86-64 or aarch64)");
    assertThat(MemoryCalls.numbers(LinuxAbi.X86_64)).containsExactly(238, 239, 237, 279);
    assertThat(MemoryCalls.numbers(LinuxAbi.AARCH64)).containsExactly(237, 236, 235, 239);
    assertThat(MemoryCalls.numbers(LinuxAbi.POWER_64)).isEmpty();
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldFallBackToJnaSayingWhyWhenTheJdk22ClassIsMissing() {
    assumeTrue(JDK >= 22, "core chooses java.lang.foreign on JDK 22+ only");
    NativeLayer ffm = NativeLayer.load("ffm", "Linux", ARCH);
    assertThat(ffm.isForeign()).isTrue();
    MemoryLayer layer = MemoryLayer.on(ffm, "no.such.FfmMemoryCalls");
    assertThat(layer.calls()).isPresent();
    assertThat(layer.name())
        .startsWith("JNA ")
        .endsWith(
            "(java.lang.foreign: this affinity-numa has no JDK 22+ classes: not loaded"
                + " from its multi-release jar)");
    assertThat(MemoryLayer.on(ffm, MemoryLayer.class.getName()).name())
        .contains("(java.lang.foreign: java.lang.NoSuchMethodException");
  }
}
