package io.github.affinitykit.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The options of the command line's attach and the answer file: never created, never a link. */
class AttachReportTest {
  @TempDir Path dir;

  @Test
  void shouldTellTheCommandLinesOptionsFromPlainRules() {
    assertThat(AttachReport.of("worker-*=count:1")).isEmpty();
    assertThat(AttachReport.of(null)).isEmpty();
    assertThat(AttachReport.of("--report=/r/report").map(AttachReport::rules)).contains("");
    assertThat(AttachReport.of("--report=/r/report\n@/r/rules").map(AttachReport::rules))
        .contains("@/r/rules");
  }

  @Test
  void shouldWriteOneEscapedLinePerFactAndEndLast() throws Exception {
    Path file = Files.createFile(dir.resolve("report"));
    AttachReport r = AttachReport.of("--report=" + file + "\nx=cpus:1").orElseThrow();
    r.add("error", "x\ty\nz: 1 (expected: \\)");
    r.add("rules", "[x=cpus:1]");
    r.finish("REFUSED");

    assertThat(Files.readString(file))
        .isEqualTo("error\tx\\x09y\\x0az: 1 (expected: \\x5c)\nrules\t[x=cpus:1]\nend\tREFUSED\n");
  }

  @Test
  void shouldNeitherCreateTheFileNorFollowALink() throws Exception {
    Path target = Files.writeString(dir.resolve("target"), "kept");
    Path link = Files.createSymbolicLink(dir.resolve("link"), target);
    Optional<AttachReport> viaLink = AttachReport.of("--report=" + link);
    Optional<AttachReport> missing = AttachReport.of("--report=" + dir.resolve("missing"));

    assertThatThrownBy(() -> viaLink.orElseThrow().finish("NONE")).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> missing.orElseThrow().finish("NONE")).isInstanceOf(IOException.class);
    assertThat(Files.readString(target)).isEqualTo("kept");
    assertThat(dir.resolve("missing")).doesNotExist();
  }
}
