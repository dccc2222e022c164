package io.github.affinitykit.kernel.guest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The program init starts inside the guest: runs the named sections one after another, each
 * isolated from the others' failures, and writes one JSON document to the result port between
 * {@code @@AK result-begin/end <label>} markers. Sections gather facts; the JUnit tests on the host
 * judge them.
 *
 * <p>Thread safety: a program; runs on its main thread.
 */
public final class GuestMain {
  /** A part of the guest program: puts what it saw into {@code data}, prints progress to log. */
  @FunctionalInterface
  interface Section {
    void run(ObjectNode data, PrintStream log) throws Exception;
  }

  static final ObjectMapper JSON = new ObjectMapper();

  private static final Map<String, Section> SECTIONS = new LinkedHashMap<>();

  static {
    SECTIONS.put("doctor", HostSections::doctor);
    SECTIONS.put("placements", PlacementSection::run);
    SECTIONS.put("wholecore", WholeCoreSection::run);
    SECTIONS.put("audit", AuditSection::run);
    SECTIONS.put("disruptor", AppSections::disruptor);
    SECTIONS.put("gateway", AppSections::gateway);
    SECTIONS.put("loadtest", AppSections::loadTest);
    SECTIONS.put("offline", HostSections::offline);
    SECTIONS.put("highest", HostSections::highest);
    SECTIONS.put("nic", NicSection::run);
    SECTIONS.put("numaseed", NicSection::numaSeed);
    SECTIONS.put("jitter", JitterSection::run);
    SECTIONS.put("container", ContainerSection::run);
    SECTIONS.put("isolate-all", IsolationSection::allWays);
    SECTIONS.put("isolate-refused", IsolationSection::refused);
    SECTIONS.put("isolate-crash", IsolationSection::crash);
    SECTIONS.put("isolate-recover", IsolationSection::recover);
    SECTIONS.put("isolate-namespaces", IsolationNamespaces::run);
    SECTIONS.put("gateway-fatal", GatewayFatalSection::run);
  }

  private GuestMain() {}

  /**
   * Runs the sections.
   *
   * @param args the run's label, then section names
   */
  public static void main(String[] args) throws IOException {
    String label = args[0];
    ObjectNode result = JSON.createObjectNode().put("label", label);
    ObjectNode sections = result.putObject("sections");
    for (String name : List.of(args).subList(1, args.length)) {
      sections.set(name, runSection(name));
    }
    write(label, result);
    System.exit(0);
  }

  private static void write(String label, ObjectNode result) throws IOException {
    byte[] text =
        ("@@AK result-begin "
                + label
                + "\n"
                + JSON.writeValueAsString(result)
                + "\n@@AK result-end "
                + label
                + "\n")
            .getBytes(StandardCharsets.UTF_8);
    try (OutputStream out = new FileOutputStream(System.getProperty("kernel.result"))) {
      out.write(text);
    }
  }

  /**
   * Reports one section's data now, as run {@code label}, for a section about to end the JVM
   * (SIGKILL) before {@link #main} could report it.
   */
  static void emit(String label, String section, ObjectNode data, PrintStream log)
      throws IOException {
    ObjectNode result = JSON.createObjectNode().put("label", label);
    result
        .putObject("sections")
        .putObject(section)
        .put("ok", true)
        .put("log", "")
        .set("data", data);
    log.println("reported run " + label + " early");
    write(label, result);
  }

  private static ObjectNode runSection(String name) {
    ObjectNode s = JSON.createObjectNode();
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    PrintStream log = new PrintStream(new Tee(buffer, System.out), true, StandardCharsets.UTF_8);
    long start = System.nanoTime();
    log.println("== section " + name);
    try {
      Section section = SECTIONS.get(name);
      if (section == null) {
        throw new IllegalArgumentException(
            "section: " + name + " (expected: one of " + SECTIONS.keySet() + ")");
      }
      section.run(s.putObject("data"), log);
      s.put("ok", true);
    } catch (Exception | Error e) {
      StringWriter w = new StringWriter();
      e.printStackTrace(new PrintWriter(w));
      s.put("ok", false).put("error", w.toString());
      log.println("section " + name + " failed: " + e);
    }
    s.put("ms", (System.nanoTime() - start) / 1_000_000);
    String text = buffer.toString(StandardCharsets.UTF_8);
    s.put("log", text.length() > 20_000 ? text.substring(text.length() - 20_000) : text);
    return s;
  }

  /** Writes to two streams. */
  private static final class Tee extends OutputStream {
    private final OutputStream a;
    private final OutputStream b;

    Tee(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public void write(int c) throws IOException {
      a.write(c);
      b.write(c);
    }

    @Override
    public void write(byte[] buf, int off, int len) throws IOException {
      a.write(buf, off, len);
      b.write(buf, off, len);
    }
  }
}
