package io.github.affinitykit.core.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Java names of a JVM's threads by kernel id, from HotSpot's thread dump as {@code jcmd <pid>
 * Thread.print} prints it: each thread's header line gives its whole Java name in quotes and its
 * kernel id ({@code nid=0x3039} on JDK 17, {@code nid=12345} from JDK 19), the JVM's own threads
 * (GC, compiler) included. {@code jcmd} is the JDK's documented tool for it: it changes nothing in
 * the target, where the Attach API's own dump is not exported and a JMX connector would stay open.
 *
 * <p>Thread safety: stateless.
 */
final class ThreadDump {
  private static final Pattern HEADER =
      Pattern.compile("^\"(.*)\" (?:.*\\s)?nid=(0x[0-9a-fA-F]+|\\d+)(?:\\s.*)?$");
  private static final long TIMEOUT_S = 30;

  private ThreadDump() {}

  /** {@return kernel id to Java name, from a thread dump's text} */
  static Map<Integer, String> parse(String dump) {
    Map<Integer, String> names = new HashMap<>();
    for (String line : dump.split("\n", -1)) {
      Matcher m = HEADER.matcher(line.stripTrailing());
      if (m.matches()) {
        String nid = m.group(2);
        int tid =
            nid.startsWith("0x") ? Integer.parseInt(nid.substring(2), 16) : Integer.parseInt(nid);
        names.put(tid, m.group(1));
      }
    }
    return names;
  }

  /**
   * Runs {@code jcmd} ({@code <java.home>/bin/jcmd}) for the thread dump of {@code pid}.
   *
   * @return kernel id to Java name
   * @throws IOException if jcmd is missing, fails or does not answer within 30 s (its output says
   *     why)
   */
  static Map<Integer, String> of(long pid) throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    if (!Files.isExecutable(jcmd)) {
      throw new IOException(jcmd + ": not found (expected: the jcmd of a JDK)");
    }
    Path out = Files.createTempFile("affinity-kit-dump", ".txt");
    try {
      Process p =
          new ProcessBuilder(List.of(jcmd.toString(), Long.toString(pid), "Thread.print"))
              .redirectErrorStream(true)
              .redirectOutput(out.toFile())
              .start();
      if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("jcmd " + pid + " Thread.print: no answer in " + TIMEOUT_S + " s");
      }
      String text = Files.readString(out, StandardCharsets.UTF_8);
      if (p.exitValue() != 0) {
        String why =
            text.lines()
                .filter(l -> !l.isBlank() && !l.startsWith(pid + ":") && !l.startsWith("\t"))
                .findFirst()
                .orElse("no output");
        throw new IOException("jcmd " + pid + " Thread.print: exit " + p.exitValue() + ": " + why);
      }
      return parse(text);
    } finally {
      Files.deleteIfExists(out);
    }
  }
}
