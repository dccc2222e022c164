package io.github.affinitykit.core.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A README's tested examples: the lines a test source holds between its {@code // README:begin} and
 * {@code // README:end} lines (at any indentation), and the check that a README shows each.
 *
 * <p>Thread safety: stateless.
 */
public final class ReadmeBlocks {
  private static final String BEGIN = "// README:begin";
  private static final String END = "// README:end";

  private ReadmeBlocks() {}

  /** The lines between the markers of {@code source}, as written. */
  public static List<String> block(Path source) throws IOException {
    List<String> lines = Files.readAllLines(source);
    int begin = -1;
    int end = -1;
    for (int i = 0; i < lines.size(); i++) {
      String s = lines.get(i).strip();
      if (s.equals(BEGIN) && begin < 0) {
        begin = i;
      } else if (s.equals(END) && begin >= 0 && end < 0) {
        end = i;
      }
    }
    if (begin < 0 || end < 0) {
      throw new AssertionError(source + ": no " + BEGIN + " ... " + END + " block");
    }
    return lines.subList(begin + 1, end);
  }

  /** Asserts that {@code readme} holds every line of {@code source}'s block, stripped. */
  public static void assertShown(Path source, Path readme) throws IOException {
    List<String> block = block(source);
    assertThat(block).as("the README block of %s", source).isNotEmpty();
    String text = Files.readString(readme);
    for (String line : block) {
      assertThat(text).as("%s shows the example of %s", readme, source).contains(line.strip());
    }
  }
}
