package io.github.affinitykit.core.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A page's tested examples (README.md and the guides under {@code docs/}): the lines a test source
 * holds between its {@code // README:begin} and {@code // README:end} lines (at any indentation),
 * and the check that one {@code ```java} block of the page shows them line for line.
 *
 * <p>A page's block may hold more than the test's lines: the imports, and declarations the test
 * makes its own way (a kit on a private lock directory, a fixture host); {@code .ci/consumer-check}
 * compiles each whole block in a project with only the page's dependencies.
 *
 * <p>Thread safety: stateless.
 */
public final class ReadmeBlocks {
  private static final String BEGIN = "// README:begin";
  private static final String END = "// README:end";
  private static final String FENCE = "```";

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

  /**
   * Asserts that one {@code ```java} block of {@code page} holds every line of {@code source}'s
   * block, in order and adjacent, each exactly as in the source once both are shifted left by their
   * common indentation.
   */
  public static void assertShown(Path source, Path page) throws IOException {
    List<String> mine = dedent(block(source));
    if (mine.isEmpty()) {
      throw new AssertionError(source + ": the block between the markers is empty");
    }
    List<List<String>> blocks = javaBlocks(Files.readAllLines(page));
    for (List<String> shown : blocks) {
      for (int i = 0; i + mine.size() <= shown.size(); i++) {
        if (dedent(shown.subList(i, i + mine.size())).equals(mine)) {
          return;
        }
      }
    }
    throw new AssertionError(
        page
            + ": none of its "
            + blocks.size()
            + " java blocks shows the example of "
            + source
            + " line for line (expected: these lines, adjacent, in one block):\n"
            + String.join("\n", mine));
  }

  /** The bodies of the page's {@code ```java} fenced blocks. */
  static List<List<String>> javaBlocks(List<String> page) {
    List<List<String>> blocks = new ArrayList<>();
    List<String> open = null;
    for (String line : page) {
      String s = line.strip();
      if (open == null && s.equals(FENCE + "java")) {
        open = new ArrayList<>();
      } else if (open != null && s.equals(FENCE)) {
        blocks.add(open);
        open = null;
      } else if (open != null) {
        open.add(line);
      }
    }
    return blocks;
  }

  private static List<String> dedent(List<String> lines) {
    int indent = Integer.MAX_VALUE;
    for (String line : lines) {
      if (!line.isBlank()) {
        indent = Math.min(indent, line.length() - line.stripLeading().length());
      }
    }
    List<String> out = new ArrayList<>(lines.size());
    for (String line : lines) {
      out.add(line.isBlank() ? "" : line.substring(indent).stripTrailing());
    }
    return out;
  }
}
