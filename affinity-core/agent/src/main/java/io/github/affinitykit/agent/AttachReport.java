package io.github.affinitykit.agent;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What {@code affinity-kit pin --pid} and {@code threads --pid} ask of an agent they load into a
 * running JVM, and its answer. The options are {@code --report=<file>}, a newline, then the rules
 * as {@code -javaagent:} takes them (text or {@code @file}; none: only report). The answer is
 * written to that file, which the command line created (mode 0600, in a directory only its user can
 * write): it is opened without creating it and without following a link. One line per fact, fields
 * separated by tabs, control characters escaped ({@code \xNN}):
 *
 * <pre>
 * rules  &lt;the rules the agent runs with, or none&gt;
 * error  &lt;a rule refused: name: value (expected: rule)&gt;
 * row    &lt;tid&gt; &lt;thread name&gt; &lt;cpu&gt; &lt;glob=rule&gt; &lt;status&gt; &lt;reason&gt;
 * end    &lt;PINNED | REFUSED | RUNNING | NONE&gt;
 * </pre>
 *
 * {@code end} comes last: a file without it was not written whole.
 *
 * <p>Thread safety: not thread-safe; the agent writes one under its class's lock.
 */
final class AttachReport {
  /** The option that makes an attach a request of the command line's. */
  static final String OPTION = "--report=";

  private final Path file;
  private final String rules;
  private final List<String> lines = new ArrayList<>();

  private AttachReport(Path file, String rules) {
    this.file = file;
    this.rules = rules;
  }

  /** {@return the request in agent options {@code args}; empty if they are plain rules} */
  static Optional<AttachReport> of(String args) {
    if (args == null || !args.startsWith(OPTION)) {
      return Optional.empty();
    }
    int eol = args.indexOf('\n');
    String path = args.substring(OPTION.length(), eol < 0 ? args.length() : eol);
    return Optional.of(new AttachReport(Path.of(path), eol < 0 ? "" : args.substring(eol + 1)));
  }

  /** {@return the rules given with the request, as -javaagent takes them; blank: only report} */
  String rules() {
    return rules;
  }

  /** Adds a line of {@code kind} with {@code fields}. */
  void add(String kind, Object... fields) {
    StringBuilder sb = new StringBuilder(kind);
    for (Object f : fields) {
      sb.append('\t').append(escape(String.valueOf(f)));
    }
    lines.add(sb.toString());
  }

  /** Adds the rows of {@code pinner}'s bound threads. */
  void rows(ThreadPinner pinner) {
    for (ThreadPinner.Row r : pinner.rows()) {
      add("row", r.tid(), r.name(), r.cpu(), r.rule(), r.status(), r.reason());
    }
  }

  /** Writes every line added, then {@code end <outcome>}, to the file the command line made. */
  void finish(String outcome) throws IOException {
    add("end", outcome);
    try (Writer w =
        Files.newBufferedWriter(
            file,
            StandardCharsets.UTF_8,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING,
            LinkOption.NOFOLLOW_LINKS)) {
      for (String l : lines) {
        w.write(l);
        w.write('\n');
      }
    }
  }

  /** {@code text} with tabs, newlines and other control characters as {@code \xNN}. */
  static String escape(String text) {
    StringBuilder sb = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c == 0x7f || c == '\\') {
        sb.append(String.format("\\x%02x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
