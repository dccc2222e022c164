package io.github.affinitykit.core.internal.natives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.internal.natives.LinuxAbi.Syscall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** How the native layer is chosen, and how it says what it cannot do. */
class NativeLayerTest {
  private static final String ARCH = System.getProperty("os.arch");
  private static final int JDK = Runtime.version().feature();

  @Test
  void shouldHaveNoCallsOffLinuxAndSayWhy() {
    NativeLayer layer = NativeLayer.load("auto", "Mac OS X", "aarch64");
    assertThat(layer.threads()).isEmpty();
    assertThat(layer.files()).isEmpty();
    assertThat(layer.isForeign()).isFalse();
    assertThat(layer.name()).isEqualTo("none");
    assertThat(layer.why()).isEqualTo("os.name Mac OS X: only Linux is supported");
    assertThat(layer).hasToString("NativeLayer[none, os.name Mac OS X: only Linux is supported]");
  }

  @Test
  void shouldNameTheRuleOfABadChoice() {
    NativeLayer layer = NativeLayer.load("jni", "Linux", ARCH);
    assertThat(layer.threads()).isEmpty();
    assertThat(layer.why()).isEqualTo("affinitykit.native: jni (expected: auto, ffm or jna)");
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldUseJnaWhenAskedOrBeforeJdk22() {
    NativeLayer jna = NativeLayer.load(" JNA ", "Linux", ARCH);
    assertThat(jna.name()).isEqualTo("JNA " + com.sun.jna.Native.VERSION);
    assertThat(jna.threads()).isPresent();
    assertThat(jna.files()).isPresent();
    assertThat(jna.isForeign()).isFalse();
    assertThat(jna.why()).isEmpty();
    if (JDK < 22) {
      assertThat(NativeLayer.load("auto", "Linux", ARCH).name()).isEqualTo(jna.name());
    }
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldUseTheForeignFunctionApiOnJdk22AndLaterAndSayWhyNotBefore() {
    NativeLayer ffm = NativeLayer.load("ffm", "Linux", ARCH);
    if (JDK < 22) {
      assertThat(ffm.threads()).isEmpty();
      assertThat(ffm.why()).isEqualTo("java.lang.foreign: needs JDK 22+ (this JVM is " + JDK + ")");
      return;
    }
    assertThat(ffm.name()).isEqualTo("java.lang.foreign (JDK " + JDK + ")");
    assertThat(ffm.threads()).isPresent();
    assertThat(ffm.files()).isPresent();
    assertThat(ffm.isForeign()).isTrue();
    assertThat(NativeLayer.load("auto", "Linux", ARCH).name()).isEqualTo(ffm.name());
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldFallBackToJnaSayingWhyWhenTheJdk22ClassesAreMissing() {
    assumeTrue(JDK >= 22, "the JDK 22+ classes are never looked for before JDK 22");
    NativeLayer ffm = NativeLayer.load("ffm", "Linux", ARCH, "no.such.FfmLibc");
    assertThat(ffm.threads()).isEmpty();
    assertThat(ffm.why()).contains("no JDK 22+ classes").contains("'Multi-Release: true'");
    NativeLayer auto = NativeLayer.load("auto", "Linux", ARCH, "no.such.FfmLibc");
    assertThat(auto.threads()).isPresent();
    assertThat(auto.name()).startsWith("JNA ").contains("(java.lang.foreign: this affinity-core");
    assertThat(auto.isForeign()).isFalse();
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldKeepThreadCallsButNoFileCallsOnAnUnknownLittleEndianAbi() {
    NativeLayer layer = NativeLayer.load("jna", "Linux", "arm");
    assertThat(layer.threads()).isPresent();
    assertThat(layer.files()).isEmpty();
    assertThat(layer.why())
        .isEqualTo("lock file calls: os.arch arm (expected: a 64-bit Linux ABI)");
    assertThat(NativeLayer.load("ffm", "Linux", "arm").threads()).isEmpty();
  }

  @Test
  void shouldNameTheFixWhenJnaCannotLoadItsStub() {
    String why =
        NativeLayer.jnaFailure(
            new UnsatisfiedLinkError(
                "/root/.cache/JNA/temp/jna1.tmp: failed to map segment from shared object"));
    assertThat(why)
        .startsWith("JNA or libc unavailable: java.lang.UnsatisfiedLinkError:")
        .contains("failed to map segment")
        .contains("-Djna.tmpdir=<a directory that allows exec>")
        .contains("-Djna.boot.library.path=<its directory>")
        .contains("-Djna.nosys=false")
        .contains("JDK 22+");
    assertThat(NativeLayer.jnaFailure(new NoClassDefFoundError("com/sun/jna/Native")))
        .isEqualTo("JNA or libc unavailable: java.lang.NoClassDefFoundError: com/sun/jna/Native");
  }

  @Test
  void shouldNameTheCauseOfANativeFailure() {
    Error init = new ExceptionInInitializerError(new IllegalCallerException("denied"));
    assertThat(NativeLayer.withCause(init))
        .isEqualTo(
            "java.lang.ExceptionInInitializerError caused by java.lang.IllegalCallerException:"
                + " denied");
  }

  @Test
  void shouldEncodePathsNulTerminated() {
    assertThat(NativeLayer.cString("/tmp/a")).containsExactly('/', 't', 'm', 'p', '/', 'a', 0);
  }

  @Test
  void shouldKnowTheSystemCallNumbersOfX86AndArm() {
    assertThat(LinuxAbi.of("amd64")).isSameAs(LinuxAbi.X86_64).isSameAs(LinuxAbi.of("X86_64"));
    assertThat(LinuxAbi.X86_64.number(Syscall.STATX)).isEqualTo(332);
    assertThat(LinuxAbi.X86_64.number(Syscall.GETTID)).isEqualTo(186);
    assertThat(LinuxAbi.X86_64.number(Syscall.GETCPU)).isEqualTo(309);
    assertThat(LinuxAbi.AARCH64.number(Syscall.STATX)).isEqualTo(291);
    assertThat(LinuxAbi.AARCH64.number(Syscall.GETCPU)).isEqualTo(168);
    assertThat(LinuxAbi.AARCH64.noFollow()).isEqualTo(0100000);
    assertThat(LinuxAbi.of("riscv64").number(Syscall.GETTID)).isEqualTo(-1);
    assertThat(LinuxAbi.of("riscv64").isKnown()).isTrue();
    assertThat(LinuxAbi.of("i386")).isSameAs(LinuxAbi.UNKNOWN);
    assertThat(LinuxAbi.UNKNOWN.isKnown()).isFalse();
  }

  @Test
  void shouldNameErrnoValuesFromOneTable() {
    assertThat(Errno.describe(Errno.ENOENT)).isEqualTo("ENOENT (2) No such file or directory");
    assertThat(Errno.name(Errno.EAGAIN)).isEqualTo("EAGAIN");
    assertThat(Errno.describe(999)).isEqualTo("errno 999 (unknown)");
    assertThat(Errno.name(999)).isEqualTo("errno 999");
  }
}
