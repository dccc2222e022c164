package io.github.affinitykit.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
