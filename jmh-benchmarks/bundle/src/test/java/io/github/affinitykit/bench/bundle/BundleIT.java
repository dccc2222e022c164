package io.github.affinitykit.bench.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.affinitykit.core.host.HostCpus;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundle as a user gets it: the {@code .tar.gz} unpacked into a fresh directory, its launcher
 * run with a {@code PATH} that holds the shell tools and {@code taskset} but no {@code java} (and
 * no {@code JAVA_HOME}), its temporary files and lock files in the test's own directory.
 */
@EnabledOnOs(OS.LINUX)
class BundleIT {
  /** The tools the launcher and the load test call: no java, no Maven. */
  private static final List<String> TOOLS =
      List.of("sh", "mkdir", "mv", "rm", "readlink", "cat", "taskset", "tar", "gzip");

  @TempDir static Path dir;
  private static Path home;
  private static Path bin;

  @BeforeAll
  static void unpack() throws Exception {
    Path tarball = Path.of(System.getProperty("bundle.tarball"));
    bin = Files.createDirectories(dir.resolve("tools"));
    for (String tool : TOOLS) {
      Files.createSymbolicLink(bin.resolve(tool), onPath(tool));
    }
    Run untar = run(dir, List.of("tar", "-xzf", tarball.toString(), "-C", dir.toString()), 60);
    assertThat(untar.status()).as(untar.output()).isZero();
    String name = tarball.getFileName().toString().replace(".tar.gz", "");
    home = dir.resolve(name);
  }

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void shouldExplainThisHostAsJsonAndKeepTheDoctorsClassArchiveForTheNextRun() throws Exception {
    Run first = kit(List.of("doctor", "--json"), 90);
    Run second = kit(List.of("doctor", "--json"), 60);

    assertThat(first.status()).as(first.output()).isZero();
    JsonNode doc = new ObjectMapper().readTree(first.output());
    assertThat(doc.at("/root").asText()).isEqualTo("this host");
    assertThat(doc.at("/topology/cpus").asInt()).isPositive();
    assertThat(doc.at("/pool/cpus").isTextual()).isTrue();
    assertThat(second.output()).isEqualTo(first.output());
    Path archive = home.resolve("lib/doctor-" + version() + ".jsa");
    assertThat(archive).isRegularFile();
    assertThat(Files.readString(home.resolve("lib/doctor-" + version() + ".jsa.home")).trim())
        .isEqualTo(home.toRealPath().toString());
  }

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void shouldRunTheQuickComparisonWithCpusFromTheHostAndWriteItsReport() throws Exception {
    Path out = dir.resolve("loadtest");

    // the launcher's plumbing (the host's CPUs, the report files), not a measurement: two arms at a
    // fixed rate (LoadTestIT runs the load test's arms; ShapeALoadIT its isolcpus scenarios)
    Run run =
        kit(
            List.of(
                "loadtest",
                "--quick",
                "--scenarios",
                "unpinned,pinned",
                "--rate",
                "1000",
                "--warmup",
                "3s",
                "--capacity-probes",
                "0",
                "--out",
                out.toString()),
            330);

    assertThat(run.status()).as(run.output()).isZero();
    assertThat(run.output())
        .as(run.output())
        .contains("CPUs from the host: server ")
        .contains("unpinned");
    assertThat(out.resolve("results.json")).isNotEmptyFile();
    assertThat(out.resolve("report.html")).isNotEmptyFile();
    JsonNode results = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(results.isObject()).isTrue();
  }

  @Test
  @Timeout(value = 1, unit = TimeUnit.MINUTES)
  void shouldListItsCommandsAndRejectAnUnknownOneWithOneLine() throws Exception {
    Run help = kit(List.of("--help"), 30);
    Run bad = kit(List.of("bench"), 30);
    Run version = kit(List.of("--version"), 30);

    assertThat(help.status()).isZero();
    assertThat(help.output())
        .contains("loadtest", "soak", "numa", "doctor", "jitter", "gateway", "Sizing a load test");
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.output().strip())
        .isEqualTo(
            "affinity-kit: command: bench (expected: loadtest, soak, numa, doctor, jitter or gateway;"
                + " --help lists them)");
    assertThat(version.output()).startsWith("affinity-kit " + version() + " (Java ");
  }

  @Test
  @Timeout(value = 1, unit = TimeUnit.MINUTES)
  void shouldRunTheNumaSeedAndSayWhatAOneNodeHostCannotCompare() throws Exception {
    Run numa = kit(List.of("numa", "--passes", "1"), 50);
    assertThat(numa.status()).as(numa.output()).isZero();
    assertThat(numa.output()).startsWith("NUMA seed: ");
    if (HostCpus.probe().topology().numaNodes().size() == 1) {
      assertThat(numa.output()).contains("nothing to compare");
    }
  }

  private static String version() {
    return home.getFileName().toString().substring("affinity-kit-".length());
  }

  /** Runs the bundle's launcher with the curated PATH, HOME and temporary directory. */
  private static Run kit(List<String> args, int timeoutSeconds) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(home.resolve("bin/affinity-kit").toString());
    cmd.addAll(args);
    return run(dir, cmd, timeoutSeconds);
  }

  private static Run run(Path cwd, List<String> cmd, int timeoutSeconds) throws Exception {
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    Path log = Files.createTempFile(dir, "run", ".log");
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
    Map<String, String> env = pb.environment();
    env.clear();
    env.put("PATH", bin.toString());
    env.put("HOME", dir.toString());
    env.put("AFFINITY_KIT_JAVA_OPTS", "-Djava.io.tmpdir=" + tmp); // lock files and temp files
    pb.redirectErrorStream(true).redirectOutput(log.toFile());
    Process p = pb.start();
    try {
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        throw new AssertionError(
            String.join(" ", cmd)
                + ": still running after "
                + timeoutSeconds
                + " s:\n"
                + read(log));
      }
      return new Run(p.exitValue(), read(log));
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  private static String read(Path log) throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  /** {@code tool} as found on this JVM's own PATH. */
  private static Path onPath(String tool) {
    for (String d :
        System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
      Path p = Path.of(d, tool);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    throw new IllegalStateException("PATH: no " + tool + " (expected: the tools " + TOOLS + ")");
  }

  private record Run(int status, String output) {}
}
