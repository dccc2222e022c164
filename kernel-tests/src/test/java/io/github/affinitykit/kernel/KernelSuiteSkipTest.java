package io.github.affinitykit.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

/** Without a kernel image the suite is skipped with one line saying what to install. */
@Timeout(30)
class KernelSuiteSkipTest {
  @Test
  void shouldSkipWithOneLineNamingThePackagesWhenTheKernelImageIsMissing() {
    String before = System.getProperty("kernel.image");
    System.setProperty("kernel.image", "/nonexistent/vmlinuz");
    try {
      assertThatThrownBy(() -> KernelSuite.boot(Shapes.C))
          .isInstanceOf(TestAbortedException.class)
          .satisfies(
              e -> {
                assertThat(e.getMessage()).doesNotContain("\n");
                assertThat(e.getMessage())
                    .contains("kernel tests skipped")
                    .contains("a 6.1 kernel image")
                    .contains(
                        "apt-get install qemu-system-x86 linux-image-amd64 linux-image-6.12-amd64"
                            + " busybox-static");
              });
    } finally {
      if (before == null) {
        System.clearProperty("kernel.image");
      } else {
        System.setProperty("kernel.image", before);
      }
    }
  }

  @Test
  void shouldFailEveryLanesBootWithTheSkipWhenTheKernelImageIsMissing() throws Exception {
    String before = System.getProperty("kernel.image");
    System.setProperty("kernel.image", "/nonexistent/vmlinuz");
    try {
      Map<String, Future<GuestResult>> boots =
          KernelSuite.bootSideBySide(List.of(List.of(Shapes.C), List.of(Shapes.B, Shapes.N)));
      assertThat(boots.keySet()).containsExactly(Shapes.C.name(), Shapes.B.name(), Shapes.N.name());
      for (Future<GuestResult> f : boots.values()) {
        assertThatThrownBy(() -> KernelSuite.await(f))
            .isInstanceOf(TestAbortedException.class)
            .hasMessageContaining("kernel tests skipped");
      }
    } finally {
      if (before == null) {
        System.clearProperty("kernel.image");
      } else {
        System.setProperty("kernel.image", before);
      }
    }
  }

  @Test
  void shouldGiveAGuestAboveSixteenVcpusThreeSecondsMorePerVcpuToReachInit() {
    assertThat(GuestBoot.bootLimit(Shapes.C)).isEqualTo(GuestBoot.BOOT_LIMIT);
    assertThat(Shapes.D.cpus()).isEqualTo(64);
    assertThat(GuestBoot.bootLimit(Shapes.D)).isEqualTo(GuestBoot.BOOT_LIMIT.plusSeconds(3 * 48));
  }

  @Test
  void shouldSkipNamingTheProgramWhenAShapesHostProgramIsMissing() {
    Shape needs =
        new Shape(
            "needs-program",
            1,
            1,
            1,
            1,
            256,
            "",
            List.of(),
            List.of(),
            Duration.ofMinutes(1),
            Shape.DEBIAN_12,
            false,
            List.of(),
            List.of(),
            List.of("no-such-program-ak"));
    assertThatThrownBy(() -> KernelSuite.boot(needs))
        .isInstanceOf(TestAbortedException.class)
        .hasMessageContaining("kernel tests skipped")
        .hasMessageContaining("no-such-program-ak")
        .hasMessageContaining("busybox-static runc");
    assertThat(KernelSuite.program("sh")).as("found on the PATH").isPresent();
  }

  @Test
  void shouldPickEachShapesKernelVersionAndNeverTakeSixTwelveForSixOne(@TempDir Path boot)
      throws IOException {
    for (String k :
        java.util.List.of(
            "vmlinuz-6.1.0-50-amd64",
            "vmlinuz-6.12.117+deb12-amd64",
            "config-6.12.117+deb12-amd64")) {
      Files.writeString(boot.resolve(k), "");
    }
    assertThat(KernelSuite.newest(boot, "6.1")).contains(boot.resolve("vmlinuz-6.1.0-50-amd64"));
    assertThat(KernelSuite.newest(boot, "6.12"))
        .contains(boot.resolve("vmlinuz-6.12.117+deb12-amd64"));
    assertThat(KernelSuite.newest(boot, "6.6")).isEmpty();
    assertThat(KernelSuite.debianPackage("6.12")).isEqualTo("linux-image-6.12-amd64");
  }
}
