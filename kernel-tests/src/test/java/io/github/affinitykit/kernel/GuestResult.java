package io.github.affinitykit.kernel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one boot produced: QEMU's exit, the kernel console, and each run's JSON result (read from
 * the result port between {@code @@AK result-begin/end <label>} markers). Every accessor that fails
 * says why with the console's tail and the section's own output, so a red test explains itself.
 *
 * <p>Thread safety: immutable after construction.
 */
final class GuestResult {
  private static final Pattern BLOCK =
      Pattern.compile("@@AK result-begin (\\S+)\\n(.*?)\\n@@AK result-end \\1", Pattern.DOTALL);
  private static final Pattern BOOTED = Pattern.compile("@@AK booted uptime=([0-9.]+)");

  private final Shape shape;
  private final List<String> command;
  private final int exit;
  private final boolean timedOut;
  private final long wallMs;
  private final String console;
  private final String results;
  private final String qemuLog;
  private final Map<String, JsonNode> runs = new LinkedHashMap<>();
  private final Map<String, String> parseErrors = new LinkedHashMap<>();
  private volatile String lastRead = "";

  GuestResult(
      Shape shape,
      List<String> command,
      int exit,
      boolean timedOut,
      long wallMs,
      String console,
      String results,
      String qemuLog) {
    this.shape = shape;
    this.command = List.copyOf(command);
    this.exit = exit;
    this.timedOut = timedOut;
    this.wallMs = wallMs;
    this.console = console;
    this.results = results;
    this.qemuLog = qemuLog;
    Matcher m = BLOCK.matcher(results);
    ObjectMapper mapper = new ObjectMapper();
    while (m.find()) {
      try {
        runs.put(m.group(1), mapper.readTree(m.group(2)));
      } catch (IOException e) {
        parseErrors.put(m.group(1), e.getMessage());
      }
    }
  }

  /** Returns the wall time from QEMU's start to its exit (or kill), in ms. */
  long wallMs() {
    return wallMs;
  }

  /** Returns the guest's uptime when init started, in seconds, or -1 if it never did. */
  double bootSeconds() {
    Matcher m = BOOTED.matcher(results);
    return m.find() ? Double.parseDouble(m.group(1)) : -1;
  }

  /**
   * Returns the data of {@code section} in run {@code label}.
   *
   * @throws AssertionError if the guest did not report the run or the section failed, with the
   *     console tail and the section's output
   */
  JsonNode section(String label, String section) {
    JsonNode run = run(label);
    lastRead = label + "/" + section;
    JsonNode s = run.path("sections").path(section);
    if (s.isMissingNode()) {
      throw new AssertionError(
          "run " + label + " has no section " + section + explain(Optional.of(run)));
    }
    if (!s.path("ok").asBoolean(false)) {
      throw new AssertionError(
          "section "
              + section
              + " of run "
              + label
              + " failed in the guest:\n"
              + s.path("error").asText()
              + "\n--- its output ---\n"
              + s.path("log").asText()
              + explain(Optional.empty()));
    }
    return s.path("data");
  }

  /** Returns run {@code label}'s whole result, or throws explaining why there is none. */
  JsonNode run(String label) {
    JsonNode run = runs.get(label);
    if (run == null) {
      throw new AssertionError(
          "the guest reported no result for run "
              + label
              + Optional.ofNullable(parseErrors.get(label))
                  .map(e -> " (bad JSON: " + e + ")")
                  .orElse("")
              + explain(Optional.empty()));
    }
    return run;
  }

  /** The output of the section read last, and the console's tail, for a failed assertion. */
  String explainLastSection() {
    String[] ls = lastRead.split("/");
    String log =
        ls.length == 2
            ? runs.get(ls[0]).path("sections").path(ls[1]).path("log").asText()
            : "(no section read)";
    return "\n--- guest section "
        + lastRead
        + " output (tail) ---\n"
        + tail(log, 60)
        + "\n--- guest console (tail) ---\n"
        + tail(console, 40);
  }

  /** A failure's context: how QEMU ended, the result port and the console's last lines. */
  String explain(Optional<JsonNode> run) {
    return "\n--- shape "
        + shape.name()
        + ": qemu "
        + (timedOut ? "killed after " + shape.timeout() : "exit " + exit)
        + " after "
        + wallMs
        + " ms; command: "
        + String.join(" ", command)
        + run.map(r -> "\n--- run result ---\n" + r.toPrettyString()).orElse("")
        + "\n--- result port (tail) ---\n"
        + tail(results, 40)
        + "\n--- qemu ---\n"
        + tail(qemuLog, 10)
        + "\n--- guest console (tail) ---\n"
        + tail(console, 60);
  }

  /** The last {@code n} lines of {@code text}. */
  static String tail(String text, int n) {
    List<String> lines = Arrays.asList(text.split("\n"));
    StringBuilder sb = new StringBuilder();
    for (String l : lines.subList(Math.max(0, lines.size() - n), lines.size())) {
      sb.append(l.length() > 400 ? l.substring(0, 400) + "…(" + l.length() + " chars)" : l);
      sb.append('\n');
    }
    return sb.toString();
  }

  /** One line for the test log: boot and wall times. */
  String timing() {
    return String.format(
        "shape %s (%d CPUs): init after %.1f s guest uptime, %.1f s wall, qemu %s",
        shape.name(),
        shape.cpus(),
        bootSeconds(),
        wallMs / 1000.0,
        timedOut ? "killed at timeout" : "exit " + exit);
  }
}
