package io.github.affinitykit.core.testkit;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The line-for-line check of a page's tested blocks: in order, adjacent, in one java block. */
class ReadmeBlocksTest {
  private static final String SOURCE =
      """
      class Example {
        void run() {
          int a = 1;
          // README:begin
          int b = 2;
          if (b > 1) {
            b++;
          }
          // README:end
        }
      }
      """;

  @TempDir Path dir;

  private void check(String page) throws IOException {
    Path source = Files.writeString(dir.resolve("Example.java"), SOURCE);
    ReadmeBlocks.assertShown(source, Files.writeString(dir.resolve("page.md"), page));
  }

  @Test
  void shouldAcceptTheLinesInOneJavaBlockAmongImportsAndDeclarations() {
    assertThatCode(
            () -> check("text\n```java\nimport x.Y;\n\nint b = 2;\nif (b > 1) {\n  b++;\n}\n```\n"))
        .doesNotThrowAnyException();
  }

  @Test
  void shouldRefuseLinesOutOfOrderApartOrReindented() {
    assertThatThrownBy(() -> check("```java\nif (b > 1) {\nint b = 2;\n  b++;\n}\n```\n"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("line for line");
    assertThatThrownBy(() -> check("```java\nint b = 2;\n\nif (b > 1) {\n  b++;\n}\n```\n"))
        .isInstanceOf(AssertionError.class);
    assertThatThrownBy(() -> check("```java\nint b = 2;\nif (b > 1) {\nb++;\n}\n```\n"))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void shouldRefuseLinesSplitOverTwoBlocksOrOutsideJavaBlocks() {
    assertThatThrownBy(
            () -> check("```java\nint b = 2;\n```\n\n```java\nif (b > 1) {\n  b++;\n}\n```\n"))
        .isInstanceOf(AssertionError.class);
    assertThatThrownBy(() -> check("```sh\nint b = 2;\nif (b > 1) {\n  b++;\n}\n```\n"))
        .isInstanceOf(AssertionError.class);
  }
}
