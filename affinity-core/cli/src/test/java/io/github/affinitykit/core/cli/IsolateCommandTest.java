package io.github.affinitykit.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.testkit.CliRun;
import io.github.affinitykit.core.testkit.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code isolate} and {@code release} on this host, read-only: a dry run (plans, changes nothing),
 * bad input, an empty journal directory; the doctor's isolation section. Nothing here isolates:
 * that happens in guest kernels only.
 */
@Timeout(60)
class IsolateCommandTest {
  private static CliRun run(String... args) {
    return CliRun.of(
        (out, err) -> AffinityKitCli.run(List.of(args), out, err, AffinityBackend::detect));
  }

  @Test
  void shouldPlanWithoutChangingAnythingOnADryRun(@TempDir Path journal) throws Exception {
    CliRun r = run("isolate", "1", "--dry-run", "--json", "--journal-dir", journal.toString());

    JsonNode plan = new ObjectMapper().readTree(r.out());
    assertThat(plan.path("status").asText()).isIn("PLANNED", "REFUSED");
    assertThat(r.status()).isEqualTo(plan.path("status").asText().equals("PLANNED") ? 0 : 1);
    assertThat(plan.path("cpus").asText()).isEqualTo("1");
    assertThat(plan.path("journal").asText()).as("no journal on a dry run").isEmpty();
    if (r.status() == 0) {
      assertThat(plan.path("bootCommandLine").asText()).startsWith("isolcpus=managed_irq,domain,1");
      assertThat(plan.path("changes"))
          .allSatisfy(c -> assertThat(c.path("outcome").asText()).isEqualTo("PLANNED"));
    }
    assertThat(journal).isEmptyDirectory();
    CliRun text = run("isolate", "1", "--dry-run", "--journal-dir", journal.toString());
    assertThat(text.out()).containsAnyOf("PLANNED cpus 1", "REFUSED cpus 1");
  }

  @Test
  void shouldRejectCpusThatAreNotOnlineOrLeaveNothingWithOneLine() {
    CliRun.of(
            (out, err) ->
                AffinityKitCli.run(
                    List.of("isolate", "4095", "--dry-run"), out, err, AffinityBackend::detect))
        .assertUsageError("cpus: \"4095\" (expected: one or more online CPUs of ");
    CliRun bad = run("isolate", "1-x", "--dry-run");
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.err()).contains("1-x").doesNotContain("\tat ");
    CliRun.assertHelpRendersCleanly(new IsolateCommand(AffinityBackend::detect));
    CliRun.assertHelpRendersCleanly(new ReleaseCommand(AffinityBackend::detect));
  }

  @Test
  void shouldReleaseNothingFromAnEmptyJournalDirectory(@TempDir Path journal) throws Exception {
    CliRun r = run("release", "--journal-dir", journal.toString());
    assertThat(r.status()).isZero();
    assertThat(r.out()).isEqualTo("no isolation to release in " + journal + "\n");
    CliRun j = run("release", "--json", "--journal-dir", journal.toString());
    assertThat(new ObjectMapper().readTree(j.out()).isArray()).isTrue();
  }

  /**
   * The planted journal, through the command line on this host: refused before anything is
   * read or written (the victim is this test's own file), with the rule it breaks.
   */
  @Test
  void shouldReplayNothingOfAPlantedJournalAndSayWhy(@TempDir Path dir) throws Exception {
    Path victim = Files.writeString(dir.resolve("victim"), "root's own\n");
    Path journals = Files.createDirectories(dir.resolve("journals"));
    Files.writeString(
        journals.resolve("isolation-0000000000400000.journal"),
        "affinitykit-isolation 2\nowner 0000000000400000 4194304 1 %\ncpus 1\nhousekeeping 0\n"
            + "mechanism AFFINITY_SHIELD\nwrite FILE RESTORE "
            + victim
            + " owned%0a % %\nend\n");

    CliRun r = run("release", "--journal-dir", journals.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out())
        .contains(
            "refused, never replayed: journal path: " + victim + " (expected: an isolation's");
    assertThat(Files.readString(victim)).isEqualTo("root's own\n");

    Files.setPosixFilePermissions(journals, PosixFilePermissions.fromString("rwxrwxrwx"));
    CliRun loose = run("release", "--journal-dir", journals.toString());
    assertThat(loose.status()).isEqualTo(1);
    assertThat(loose.out())
        .contains("refused, never read: journal directory: " + journals + " mode 0777");
    assertThat(Files.readString(victim)).isEqualTo("root's own\n");
  }

  @Test
  void shouldListTheRecordedIsolationsInTheDoctor() throws Exception {
    String e5 = Fixtures.root(Fixtures.E5).toString();
    assertThat(run("doctor", "--root", e5).out()).contains("\nIsolation  ");
    JsonNode doc = new ObjectMapper().readTree(run("doctor", "--root", e5, "--json").out());
    assertThat(doc.path("isolations").isArray()).isTrue();
  }
}
