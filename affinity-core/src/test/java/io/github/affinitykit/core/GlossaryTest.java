package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.testkit.MainSources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One word per idea, checked: the glossary of {@code docs/ARCHITECTURE.md} ("Words of state, events
 * and metrics") against the main sources of every module. Every constant of a state enum, every
 * Flight Recorder event name ({@code @Name}) and every Micrometer meter name ({@code "affinity.…"})
 * must be a word of the glossary's table; each word is listed once; every enum of every module is
 * either a state enum or listed as not a state, so a new enum is classified before it ships.
 */
class GlossaryTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern TICKED = Pattern.compile("`([^`]+)`");
  private static final Pattern JFR_NAME =
      Pattern.compile("@(?:jdk\\.jfr\\.)?Name\\(\\s*\"([^\"]+)\"\\s*\\)");
  private static final Pattern METER = Pattern.compile("affinity(?:\\.[a-z]+)+");
  // literals of that shape that name no meter: OpenHFT's system property (PoolPolicy.OPENHFT)
  private static final Set<String> NOT_METERS = Set.of("affinity.reserved");

  private static List<String> words;
  private static Set<String> stateEnums;
  private static Set<String> notStates;
  private static Map<String, List<String>> enums;
  private static List<Path> files;

  @BeforeAll
  static void read() throws IOException {
    List<String> lines = glossary(Files.readAllLines(ROOT.resolve("docs/ARCHITECTURE.md")));
    words = table(lines);
    stateEnums = ticked(paragraph(lines, "**State enums**"));
    notStates = ticked(paragraph(lines, "**Not states**"));
    files = MainSources.files(ROOT);
    enums = new TreeMap<>();
    for (Path f : files) {
      MainSources.enums(f).forEach(enums::putIfAbsent);
    }
  }

  @Test
  void shouldReadEveryModuleAndTheGlossary() {
    assertThat(files).anyMatch(f -> f.endsWith("netty/gateway/PinMode.java"));
    assertThat(files).anyMatch(f -> f.endsWith("bench/load/Controls.java"));
    assertThat(files).anyMatch(f -> f.endsWith("watchdog/WatchEvent.java")); // affinity-watchdog
    assertThat(enums.get("WatchEvent.Kind")).contains("MOVED", "LOST", "INTRUDED");
    assertThat(enums.get("LeaseStatus")).contains("PINNED", "SHARED", "UNPINNED", "LOST");
    assertThat(enums.get("CpuVerdict.Verdict")).containsExactly("EXCLUSIVE", "INTRUDED", "UNKNOWN");
    assertThat(words).contains("SHARED", "LOST", "UNPINNED", "io.github.affinitykit.LeaseLost");
    assertThat(stateEnums).contains("LeaseStatus", "WatchEvent.Kind");
    assertThat(notStates).contains("Placement", "RunOutPolicy");
  }

  @Test
  void shouldListEachWordOnce() {
    List<String> twice = new ArrayList<>(words);
    new LinkedHashSet<>(words).forEach(twice::remove);
    assertThat(twice).as("words listed more than once in the glossary").isEmpty();
  }

  @Test
  void shouldClassifyEveryEnumOfEveryModule() {
    Set<String> unclassified = new TreeSet<>(enums.keySet());
    unclassified.removeAll(stateEnums);
    unclassified.removeAll(notStates);
    assertThat(unclassified)
        .as("enums that are neither **State enums** nor **Not states** in the glossary")
        .isEmpty();
    Set<String> both = new TreeSet<>(stateEnums);
    both.retainAll(notStates);
    assertThat(both).as("enums listed as states and as not states").isEmpty();
    Set<String> stale = new TreeSet<>(stateEnums);
    stale.addAll(notStates);
    stale.removeAll(enums.keySet());
    assertThat(stale).as("enums the glossary lists that no module declares").isEmpty();
  }

  @Test
  void shouldFindEveryStateConstantInTheGlossary() {
    Set<String> missing = new TreeSet<>();
    for (String e : stateEnums) {
      for (String c : enums.getOrDefault(e, List.of())) {
        if (!words.contains(c)) {
          missing.add(e + "." + c);
        }
      }
    }
    assertThat(missing).as("state constants that are not glossary words").isEmpty();
  }

  @Test
  void shouldFindEveryFlightRecorderEventAndMeterNameInTheGlossary() {
    Set<String> events = new TreeSet<>();
    Set<String> meters = new TreeSet<>();
    for (Path f : files) {
      Matcher m = JFR_NAME.matcher(MainSources.code(f));
      while (m.find()) {
        events.add(m.group(1));
      }
      MainSources.literals(f).stream()
          .filter(s -> METER.matcher(s).matches() && !NOT_METERS.contains(s))
          .forEach(meters::add);
    }
    assertThat(events).as("JFR event names found").hasSizeGreaterThanOrEqualTo(7);
    assertThat(events) // the watchdog's, in affinity-watchdog
        .contains("io.github.affinitykit.LeaseRepinned", "io.github.affinitykit.PinnedCpu");
    assertThat(meters).as("meter names found").contains("affinity.threads", "affinity.leases.lost");
    Set<String> missing = new TreeSet<>(events);
    missing.addAll(meters);
    missing.removeAll(words);
    assertThat(missing).as("event and meter names that are not glossary words").isEmpty();
  }

  /** The lines of the section "Glossary: one word per idea". */
  private static List<String> glossary(List<String> doc) {
    int from = doc.indexOf("## Glossary: one word per idea");
    assertThat(from).as("the glossary section").isNotNegative();
    int to = from + 1;
    while (to < doc.size() && !doc.get(to).startsWith("## ")) {
      to++;
    }
    return doc.subList(from, to);
  }

  /** The first cells of the table headed {@code | word | meaning | where |}, one word each. */
  private static List<String> table(List<String> lines) {
    int head = lines.indexOf("| word | meaning | where |");
    assertThat(head).as("the glossary's word table").isNotNegative();
    List<String> out = new ArrayList<>();
    for (int i = head + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
      String cell = lines.get(i).split("\\|")[1].trim();
      Matcher m = TICKED.matcher(cell);
      assertThat(m.matches()).as("one `word` in the first cell: %s", lines.get(i)).isTrue();
      out.add(m.group(1));
    }
    return out;
  }

  /** The paragraph that starts with {@code lead}, up to a blank line. */
  private static String paragraph(List<String> lines, String lead) {
    StringBuilder out = new StringBuilder();
    boolean in = false;
    for (String l : lines) {
      in = in ? !l.isBlank() : l.startsWith(lead);
      if (in) {
        out.append(l).append('\n');
      }
    }
    assertThat(out).as("the paragraph %s", lead).isNotEmpty();
    return out.toString();
  }

  private static Set<String> ticked(String text) {
    Set<String> out = new TreeSet<>();
    Matcher m = TICKED.matcher(text);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }
}
