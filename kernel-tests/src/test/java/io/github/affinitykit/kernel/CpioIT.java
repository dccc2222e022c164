package io.github.affinitykit.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The initramfs writer produces what GNU cpio reads back (when cpio is installed). */
@Timeout(60)
class CpioIT {
  @TempDir Path dir;

  @Test
  void shouldWriteANewcArchiveThatCpioListsWithParentsFilesAndLinks() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/cpio")), "cpio not installed");
    Path archive = dir.resolve("a.cpio");
    try (Cpio c = new Cpio(archive)) {
      c.text("/init", "#!/bin/sh\n", true);
      c.text("/app/cp/0/x.txt", "abc", false);
      c.symlink("/bin/sh", "busybox");
    }
    Process p =
        new ProcessBuilder("cpio", "-it", "--quiet", "-F", archive.toString())
            .redirectErrorStream(true)
            .start();
    String listing = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();

    assertThat(p.exitValue()).as(listing).isZero();
    assertThat(listing.split("\n"))
        .containsExactly("init", "app", "app/cp", "app/cp/0", "app/cp/0/x.txt", "bin", "bin/sh");
  }
}
