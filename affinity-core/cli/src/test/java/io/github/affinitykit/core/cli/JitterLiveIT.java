package io.github.affinitykit.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.affinitykit.core.testkit.CliRun;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code doctor --jitter 1s} and {@code affinity-kit jitter} at 1 s per arm on this host, with the
 * real backend and a lock directory of their own: the structure and the sanity of what they print
 * (every pool CPU or arm present, or refused with a reason; gap counts and lengths not negative;
 * time lost a share in [0, 1]), never how long the gaps were, which is the host's.
 */
@EnabledOnOs(OS.LINUX)
class JitterLiveIT {
  private static final String LENGTH = "(?:≥ |≤ )?\\d+(?:\\.\\d+)? (?:ns|µs|ms|s)";

  /** A row of an arm's table: cpu, thread, sampled, gaps, max, p99.99, time lost. */
  private static final Pattern ROW =
      Pattern.compile(
          "^ +(\\d+)  (.+?) +(\\d+(?:\\.\\d+)? (?:ns|µs|ms|s)) +([\\d,]+) +("
              + LENGTH
              + ") +("
              + LENGTH
              + "|unbounded) +(?:≥ )?(\\d+\\.\\d{4})%  .*$");

  @TempDir Path locks;

  private static CliRun cli(String... args) {
    return CliRun.of((out, err) -> AffinityKitCli.run(List.of(args), out, err));
  }

  @Test
  @Timeout(120)
  void shouldPrintEachPoolCpusWorstGapsBesideTheAuditVerdict() throws Exception {
    CliRun text =
        cli("doctor", "--jitter", "1s", "--audit-ms", "0", "--lock-dir", locks.toString());
    CliRun json = cli("doctor", "--json", "--jitter", "1s", "--lock-dir", locks.toString());

    assertThat(text.status()).as(text.err()).isZero();
    String section = text.out().substring(text.out().indexOf("\nJitter     "));
    assertThat(section).contains("cost: one spinning thread pinned per CPU");
    Matcher cpu =
        Pattern.compile(
                "  cpu (\\d+) (\\w+), audit (\\w+): ([\\d,]+) gaps, max .+, p99.99 .+,"
                    + " (\\d+\\.\\d{4})% of the window lost")
            .matcher(section);
    int cpus = 0;
    while (cpu.find()) {
      cpus++;
      assertThat(Double.parseDouble(cpu.group(5))).isBetween(0.0, 100.0);
    }
    assertThat(json.status()).as(json.err()).isZero();
    JsonNode jitter = new ObjectMapper().readTree(json.out()).get("jitter");
    assertThat(jitter.get("cost").asText()).contains("busy CPU");
    assertThat(jitter.get("cpus")).hasSize(cpus).isNotEmpty();
    for (JsonNode c : jitter.get("cpus")) {
      assertThat(c.get("gaps").asLong()).isNotNegative();
      assertThat(c.get("maxGapNs").asLong()).isNotNegative();
      assertThat(c.get("p9999Ns").asLong()).isBetween(0L, c.get("maxGapNs").asLong());
      assertThat(c.get("lostShare").asDouble()).isBetween(0.0, 1.0);
      assertThat(c.get("worst").size()).isLessThanOrEqualTo(DoctorJitter.WORST);
      for (JsonNode g : c.get("worst")) {
        assertThat(g.get("durationNs").asLong()).isPositive();
        assertThat(g.get("cause").asText()).isNotEmpty();
      }
    }
  }

  @Test
  @Timeout(400)
  void shouldPrintEveryArmOrWhyItDidNotRunUnderTheSameNoise() {
    CliRun run =
        cli("jitter", "--window", "1s", "--anchor-rounds", "1", "--lock-dir", locks.toString());

    assertThat(run.status()).as(run.err()).isZero();
    List<String> lines = run.out().lines().toList();
    assertThat(lines).anyMatch(l -> l.startsWith("  noise: 1 busy thread of this JVM, unpinned"));
    for (String arm : List.of("unpinned", "pinned", "exclusive", "isolated", "anchor")) {
      int at = indexOf(lines, arm + " ");
      assertThat(at).as(arm + " in\n" + run.out()).isNotNegative();
      String next = lines.get(at + 1);
      if (next.startsWith("  not run: ")
          || next.startsWith("  refused: ")
          || next.startsWith("  no result: ")) {
        continue; // refused, with its reason (the anchor's rounds may outlast its patience here)
      }
      assertThat(next).as(arm).startsWith("   cpu  thread");
      Matcher row = ROW.matcher(lines.get(at + 2));
      assertThat(row.matches()).as(arm + ": " + lines.get(at + 2)).isTrue();
      assertThat(Double.parseDouble(row.group(7))).isBetween(0.0, 100.0);
    }
    // never run on the host: it changes the whole machine
    assertThat(lines.get(indexOf(lines, "isolated ") + 1))
        .startsWith("  not run: needs --isolated");
    assertThat(run.out()).contains(JitterTable.DIFFERENCES);
  }

  private static int indexOf(List<String> lines, String start) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith(start)) {
        return i;
      }
    }
    return -1;
  }
}
