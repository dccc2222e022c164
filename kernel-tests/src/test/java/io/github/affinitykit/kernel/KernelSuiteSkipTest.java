package io.github.affinitykit.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
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
                    .contains("a kernel image")
                    .contains("apt-get install qemu-system-x86 linux-image-amd64 busybox-static");
              });
    } finally {
      if (before == null) {
        System.clearProperty("kernel.image");
      } else {
        System.setProperty("kernel.image", before);
      }
    }
  }
}
