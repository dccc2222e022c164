package io.github.affinitykit.core.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The main Java sources of every module of the repository, read as text: the enums each declares
 * with their constants, and its string literals. A small lexer drops comments (and, for the enums,
 * string and character literals), so a word in Javadoc or in a message is never taken for code.
 *
 * <p>Thread safety: stateless; every method may be called from any thread.
 */
public final class MainSources {
  private static final Pattern ENUM = Pattern.compile("\\benum\\s+(\\w+)[^{;]*\\{");
  private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
  private static final Pattern MAIN = Pattern.compile("(?:.+/)?src/main/java[^/]*/.+\\.java");
  private static final Pattern CONSTANT = Pattern.compile("[A-Za-z_$][\\w$]*");

  private MainSources() {}

  /**
   * Returns every {@code .java} file under a {@code src/main/java*} folder of the repository.
   *
   * @param root the repository's root
   * @return the files, sorted
   */
  public static List<Path> files(Path root) {
    List<Path> out = new ArrayList<>();
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
              String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
              return name.equals("target") || name.startsWith(".") && !dir.equals(root)
                  ? FileVisitResult.SKIP_SUBTREE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              if (MAIN.matcher(root.relativize(file).toString()).matches()) {
                out.add(file);
              }
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.sort(null);
    return out;
  }

  /**
   * Returns the enums a file declares, by name ({@code Outer.Inner} when nested in the file's type,
   * the enum's own name when it is the file's type), each with its constants in order.
   *
   * @param file a Java source file
   * @return the enums, in the order declared
   */
  public static Map<String, List<String>> enums(Path file) {
    String code = code(read(file), false);
    String outer = file.getFileName().toString().replaceFirst("\\.java$", "");
    Map<String, List<String>> out = new LinkedHashMap<>();
    Matcher m = ENUM.matcher(code);
    while (m.find()) {
      String name = m.group(1).equals(outer) ? outer : outer + "." + m.group(1);
      out.put(name, constants(code, m.end()));
    }
    return out;
  }

  /**
   * Returns the string literals of a file's code (not of its comments), unescaped only as far as
   * the text between the quotes.
   *
   * @param file a Java source file
   * @return the literals, in order
   */
  public static List<String> literals(Path file) {
    List<String> out = new ArrayList<>();
    Matcher m = LITERAL.matcher(code(file));
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  /**
   * Returns a file's code without its comments, string literals kept.
   *
   * @param file a Java source file
   * @return the code
   */
  public static String code(Path file) {
    return code(read(file), true);
  }

  /** The constants of the enum body that starts at {@code from}: up to its first ';' or '}'. */
  private static List<String> constants(String code, int from) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    int depth = 0;
    for (int i = from; i < code.length(); i++) {
      char c = code.charAt(i);
      if (depth == 0 && (c == ',' || c == ';' || c == '}')) {
        add(out, cur);
        if (c != ',') {
          break;
        }
      } else if (c == '(' || c == '{' || c == '[') {
        depth++;
      } else if (c == ')' || c == '}' || c == ']') {
        depth--;
      } else if (depth == 0) {
        cur.append(c);
      }
    }
    return out;
  }

  private static void add(List<String> out, StringBuilder cur) {
    String c = cur.toString().replaceAll("@[\\w.]+", "").trim();
    cur.setLength(0);
    if (CONSTANT.matcher(c).matches()) {
      out.add(c);
    }
  }

  /** The source without comments; string and char literals kept, or emptied. */
  static String code(String s, boolean keepLiterals) {
    StringBuilder out = new StringBuilder(s.length());
    int i = 0;
    while (i < s.length()) {
      if (s.startsWith("//", i)) {
        i = end(s.indexOf('\n', i), s);
      } else if (s.startsWith("/*", i)) {
        i = end(s.indexOf("*/", i + 2), s) + 2;
        out.append(' ');
      } else if (s.startsWith("\"\"\"", i)) {
        int close = end(s.indexOf("\"\"\"", i + 3), s);
        out.append(keepLiterals ? s.substring(i, Math.min(close + 3, s.length())) : "\"\"");
        i = close + 3;
      } else if (s.charAt(i) == '"' || s.charAt(i) == '\'') {
        char q = s.charAt(i);
        int j = i + 1;
        while (j < s.length() && s.charAt(j) != q) {
          j += s.charAt(j) == '\\' ? 2 : 1;
        }
        out.append(keepLiterals ? s.substring(i, Math.min(j + 1, s.length())) : q + "" + q);
        i = j + 1;
      } else {
        out.append(s.charAt(i++));
      }
    }
    return out.toString();
  }

  private static int end(int index, String s) {
    return index < 0 ? s.length() : index;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
