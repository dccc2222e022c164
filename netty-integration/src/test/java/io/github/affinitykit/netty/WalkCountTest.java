package io.github.affinitykit.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walk from {@code PinnedServerGroups.builder(kit)…build()} to the worker loop's {@code
 * sched_setaffinity} crosses at most the number of classes docs/ARCHITECTURE.md states: {@link
 * WalkCount} counts them in a JVM of its own under the JaCoCo agent (never this JVM's, which may
 * have its own for coverage). Run it with {@code mvn -B -pl netty-integration -am test
 * -Dtest=WalkCountTest -Dsurefire.failIfNoSpecifiedTests=false}: it prints the classes.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(120)
class WalkCountTest {
  /** What ARCHITECTURE says the walk crosses at most: a longer walk fails here. */
  private static final Pattern STATED =
      Pattern.compile(
          "the\\s+walk\\s+crosses\\s+(\\d+)\\s+classes\\s+\\((\\d+)\\s+on\\s+JDK\\s+22\\+");

  @TempDir Path dir;

  @Test
  void shouldCrossAtMostTheClassesArchitectureStates() throws Exception {
    String out = run(dir);
    assumeTrue(!out.startsWith("skipped: "), out);
    System.out.print(out);
    int walk = count(out, "walk");
    assertThat(walk).as(out).isPositive().isLessThanOrEqualTo(stated());
    assertThat(out)
        .contains("io.github.affinitykit.netty.ServerGroupsBuilder")
        .contains("io.github.affinitykit.core.os.LinuxAffinityBackend")
        .doesNotContain("WalkCount");
  }

  private static int stated() throws IOException {
    String doc = Files.readString(Path.of("..", "docs", "ARCHITECTURE.md"));
    Matcher m = STATED.matcher(doc);
    assertThat(m.find()).as("ARCHITECTURE: \"" + STATED.pattern() + "\"").isTrue();
    return Integer.parseInt(m.group(Runtime.version().feature() >= 22 ? 2 : 1));
  }

  private static int count(String out, String what) {
    Matcher m = Pattern.compile("(?m)^" + what + ": (\\d+)$").matcher(out);
    assertThat(m.find()).as(out).isTrue();
    return Integer.parseInt(m.group(1));
  }

  /**
   * Runs {@link WalkCount} in a child JVM with only the JaCoCo agent, its locks and temporary files
   * in {@code dir}; returns what it printed.
   */
  static String run(Path dir) throws IOException, InterruptedException {
    Path locks = Files.createDirectory(dir.resolve("locks"));
    String cp = System.getProperty("java.class.path");
    String agent =
        Arrays.stream(cp.split(File.pathSeparator))
            .filter(p -> p.matches(".*org\\.jacoco\\.agent-[^/]*-runtime\\.jar"))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("classpath: no JaCoCo agent runtime jar"));
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-javaagent:" + agent + "=includes=io.github.affinitykit.*,output=none,jmx=true",
            "--enable-native-access=ALL-UNNAMED",
            "-Djava.io.tmpdir=" + dir,
            "-cp",
            cp,
            WalkCount.class.getName(),
            locks.toString());
    Path log = dir.resolve("walk.txt");
    Process p =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("walk counted within 60 s").isTrue();
      String out = Files.readString(log, StandardCharsets.UTF_8);
      assertThat(p.exitValue()).as(out).isIn(0, 2);
      return out;
    } finally {
      p.destroyForcibly();
    }
  }
}
