package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hardened container's file systems: {@code java.io.tmpdir} and the home directory (JNA's {@code
 * ~/.cache}) on a {@code noexec} tmpfs. The live pinning checks ({@link LiveChecksMain}) run in a
 * JVM started inside a private mount namespace ({@code unshare --mount}) that mounts the tmpfs, so
 * nothing outside the test sees it and it is gone when the JVM ends. On JDK 25 they must pin
 * through {@code java.lang.foreign} and extract nothing; on JDK 17 nothing can pin and the reason
 * names the fix. Needs root and {@code unshare} (util-linux): skipped with one line otherwise. The
 * JVMs run on the jar (failsafe's class path), so the JDK 25 one finds the multi-release classes
 * where users find them.
 */
@EnabledOnOs(OS.LINUX)
class NoexecPinningIT {
  private static final String JDK25 =
      System.getProperty("affinitykit.test.jdk25", "/usr/lib/jvm/temurin-25-jdk-amd64");
  private static final String JDK17 =
      System.getProperty("affinitykit.test.jdk17", "/usr/lib/jvm/java-17-openjdk-amd64");

  @TempDir Path work;

  @Test
  @Timeout(value = 180, threadMode = ThreadMode.SEPARATE_THREAD)
  void shouldPinOnJdk25WithNothingExtractedWhenTmpAndHomeAreNoexec() throws Exception {
    List<String> out = runInNoexecNamespace(JDK25);
    assertThat(line(out, "MOUNT ")).as(String.join("\n", out)).contains("tmpfs").contains("noexec");
    assertThat(line(out, "BACKEND "))
        .as(String.join("\n", out))
        .startsWith("true Linux: java.lang.foreign (JDK 25)");
    List<String> checks = lines(out, "CHECK ");
    assertThat(checks).as(String.join("\n", out)).hasSizeGreaterThanOrEqualTo(13);
    assertThat(checks).filteredOn(c -> c.contains(" FAIL ")).isEmpty();
    assertThat(checks)
        .filteredOn(c -> c.startsWith("LivePinningIT.") && c.endsWith(" PASS"))
        .hasSize(2); // the live audit is affinity-audit's LiveAuditIT
    assertThat(checks)
        .filteredOn(c -> c.startsWith("LinuxAffinityBackendTest.should") && c.endsWith(" PASS"))
        .hasSizeGreaterThanOrEqualTo(8);
    assertThat(line(out, "EXTRACTED ")).isEqualTo("[]");
  }

  @Test
  @Timeout(value = 180, threadMode = ThreadMode.SEPARATE_THREAD)
  void shouldNameTheFixOnJdk17WhenJnaCannotLoadItsStub() throws Exception {
    List<String> out = runInNoexecNamespace(JDK17);
    assertThat(line(out, "MOUNT ")).as(String.join("\n", out)).contains("noexec");
    assertThat(line(out, "BACKEND "))
        .as(String.join("\n", out))
        .startsWith("false JNA or libc unavailable: java.lang.UnsatisfiedLinkError")
        .contains("failed to map segment from shared object")
        .contains("-Djna.tmpdir=<a directory that allows exec>")
        .contains("-Djna.boot.library.path=")
        .contains("run on JDK 22+");
    assertThat(lines(out, "CHECK ")).isEmpty();
  }

  /** Runs {@link LiveChecksMain} on {@code jdk} with its tmpdir and home on a noexec tmpfs. */
  private List<String> runInNoexecNamespace(String jdk) throws IOException, InterruptedException {
    Path java = Path.of(jdk, "bin", "java");
    assumeTrue(Files.isExecutable(java), "no JDK at " + jdk + ": set -Daffinitykit.test.jdk*");
    assumeTrue(isRoot(), "not root: mounting a tmpfs in a private namespace needs root");
    Path unshare = onPath("unshare");
    assumeTrue(unshare != null, "no unshare on PATH (util-linux)");
    Path mnt = Files.createDirectories(work.resolve("noexec"));
    List<String> cmd = new ArrayList<>();
    cmd.addAll(List.of(unshare.toString(), "--mount", "--propagation", "private", "sh", "-c"));
    cmd.add(
        "mount -t tmpfs -o noexec,nosuid,nodev,size=64m affinitykit-noexec \"$1\""
            + " && mkdir \"$1/home\" && d=$1 && shift"
            + " && exec env -u XDG_CACHE_HOME HOME=\"$d/home\" \"$@\"");
    cmd.addAll(List.of("sh", mnt.toString(), java.toString()));
    cmd.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-Xshare:off"));
    cmd.add("-Djava.io.tmpdir=" + mnt);
    cmd.add("-Duser.home=" + mnt.resolve("home"));
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path")));
    cmd.add(LiveChecksMain.class.getName());
    Path log = work.resolve("child.log");
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      assertThat(p.waitFor(150, TimeUnit.SECONDS)).as("the child JVM ended").isTrue();
    } finally {
      p.destroyForcibly();
    }
    List<String> out = Files.readAllLines(log, StandardCharsets.UTF_8);
    System.out.println(jdk + ":\n" + String.join("\n", out)); // kept in the failsafe report
    assertThat(out).as(String.join("\n", out)).contains("DONE");
    assertThat(p.exitValue()).isZero();
    return out;
  }

  private static String line(List<String> out, String prefix) {
    List<String> all = lines(out, prefix);
    assertThat(all).as(String.join("\n", out)).hasSize(1);
    return all.get(0);
  }

  private static List<String> lines(List<String> out, String prefix) {
    return out.stream()
        .filter(l -> l.startsWith(prefix))
        .map(l -> l.substring(prefix.length()))
        .collect(Collectors.toList());
  }

  private static boolean isRoot() throws IOException {
    return Files.readAllLines(Path.of("/proc/self/status")).stream()
        .anyMatch(l -> l.startsWith("Uid:") && l.split("\\s+")[1].equals("0"));
  }

  private static Path onPath(String program) {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
      Path p = Path.of(dir, program);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }
}
