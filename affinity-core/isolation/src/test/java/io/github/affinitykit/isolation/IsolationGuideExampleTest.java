package io.github.affinitykit.isolation;

import static io.github.affinitykit.isolation.IsolatorPlanTest.dir;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.testkit.ReadmeBlocks;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * The example of the runtime isolation guide ({@code docs/isolation.md}), run on a kit whose
 * isolations change a fixture tree (never this host): CPU 3 pinned, then isolated, the report
 * printed, and everything undone at the end of the try; and checked to be the guide's text, line
 * for line.
 */
@Timeout(60)
class IsolationGuideExampleTest {
  @Test
  void shouldIsolateThePinnedCpuAndUndoItOnAFixtureTree(TestInfo info) throws IOException {
    AffinityKit kit = TreeKits.isolating(dir(info).resolve("root"), 4);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    // README:begin
    try (CpuLease lease = kit.pinCurrentThread(3); // a thread of yours on CPU 3
        Isolation iso = Isolation.of(kit.isolate(CpuSet.of(3)))) { // the rest off CPU 3 till closed
      out.println(iso.report().text()); // mechanism and why, what moved, what stays
      out.println(kit.audit(CpuSet.of(lease.cpu()), Duration.ofSeconds(1)).summary());
    }
    // README:end

    assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("ISOLATED").contains("3");
    assertThat(kit.isolation()).as("undone when the try ended").isEmpty();
    assertThat(kit.pinnedThreadIds()).isEmpty();
  }

  @Test
  void shouldBeTheCodeTheGuideShows() throws IOException {
    ReadmeBlocks.assertShown(
        Path.of("src/test/java/io/github/affinitykit/isolation/IsolationGuideExampleTest.java"),
        Path.of("..", "..", "docs", "isolation.md"));
  }
}
