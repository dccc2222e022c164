package io.github.affinitykit.netty.gateway;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A strict parser of the Prometheus text format 0.0.4: every line is HELP, TYPE or a sample; names
 * and label names match the grammar; label values use only the three escapes; values are floats; a
 * family's TYPE comes before its samples, at most once; a family's samples are contiguous; no
 * series twice; counters end in {@code _total} and are not negative.
 */
final class PromParser {
  private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
  private static final Set<String> TYPES =
      Set.of("counter", "gauge", "histogram", "summary", "untyped");

  /** One sample. */
  record Sample(String name, Map<String, String> labels, double value) {}

  /** One family: its type and samples. */
  record Family(String name, String type, List<Sample> samples) {}

  private PromParser() {}

  static Map<String, Family> parse(String text) {
    if (!text.endsWith("\n")) {
      throw new IllegalArgumentException("text must end with a newline");
    }
    Map<String, Family> families = new LinkedHashMap<>();
    Set<String> helped = new HashSet<>();
    Set<String> series = new HashSet<>();
    Set<String> finished = new HashSet<>();
    String current = null;
    int n = 0;
    for (String line : text.substring(0, text.length() - 1).split("\n", -1)) {
      n++;
      String where = "line " + n + ": " + line;
      if (line.startsWith("# HELP ") || line.startsWith("# TYPE ")) {
        String[] p = line.substring(7).split(" ", 2);
        require(NAME.matcher(p[0]).matches(), where, "bad metric name");
        if (line.startsWith("# HELP ")) {
          require(helped.add(p[0]), where, "second HELP");
        } else {
          require(p.length == 2 && TYPES.contains(p[1]), where, "bad type");
          require(!families.containsKey(p[0]), where, "second TYPE or TYPE after samples");
          require(
              !p[1].equals("counter") || p[0].endsWith("_total"), where, "counter without _total");
          families.put(p[0], new Family(p[0], p[1], new ArrayList<>()));
        }
        if (current != null && !current.equals(p[0])) {
          finished.add(current);
        }
        current = p[0];
        continue;
      }
      require(!line.startsWith("#") && !line.isBlank(), where, "unexpected line");
      Sample s = sample(line, where);
      require(families.containsKey(s.name()), where, "sample before its TYPE");
      require(!finished.contains(s.name()), where, "family not contiguous");
      if (current != null && !current.equals(s.name())) {
        finished.add(current);
      }
      current = s.name();
      require(series.add(s.name() + new TreeMap<>(s.labels())), where, "duplicate series");
      Family f = families.get(s.name());
      require(!f.type().equals("counter") || s.value() >= 0, where, "negative counter");
      f.samples().add(s);
    }
    return families;
  }

  private static Sample sample(String line, String where) {
    int brace = line.indexOf('{');
    int space = line.indexOf(' ');
    require(space > 0, where, "no value");
    Map<String, String> labels = new LinkedHashMap<>();
    String name;
    String rest;
    if (brace > 0 && brace < space) {
      name = line.substring(0, brace);
      int end = labels(line, brace + 1, labels, where);
      require(end < line.length() && line.charAt(end) == ' ', where, "no space before value");
      rest = line.substring(end + 1);
    } else {
      name = line.substring(0, space);
      rest = line.substring(space + 1);
    }
    require(NAME.matcher(name).matches(), where, "bad metric name");
    String[] v = rest.split(" ");
    require(v.length == 1 || v.length == 2, where, "value [timestamp] expected");
    double value;
    try {
      value =
          switch (v[0]) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(v[0]);
          };
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(where + ": bad value", e);
    }
    return new Sample(name, labels, value);
  }

  /** Parses {@code a="x",b="y"}} from {@code i}; returns the index after the closing brace. */
  private static int labels(String line, int i, Map<String, String> out, String where) {
    while (true) {
      require(i < line.length(), where, "unterminated labels");
      if (line.charAt(i) == '}') {
        return i + 1;
      }
      int eq = line.indexOf('=', i);
      require(eq > i, where, "label without =");
      String label = line.substring(i, eq);
      require(LABEL.matcher(label).matches(), where, "bad label name " + label);
      require(eq + 1 < line.length() && line.charAt(eq + 1) == '"', where, "unquoted label");
      StringBuilder value = new StringBuilder();
      int j = eq + 2;
      while (true) {
        require(j < line.length(), where, "unterminated label value");
        char c = line.charAt(j);
        if (c == '"') {
          break;
        }
        if (c == '\\') {
          require(j + 1 < line.length(), where, "dangling escape");
          char e = line.charAt(++j);
          require(e == '\\' || e == '"' || e == 'n', where, "bad escape \\" + e);
          value.append(e == 'n' ? '\n' : e);
        } else {
          value.append(c);
        }
        j++;
      }
      require(out.put(label, value.toString()) == null, where, "label twice: " + label);
      i = j + 1;
      if (i < line.length() && line.charAt(i) == ',') {
        i++;
      }
    }
  }

  private static void require(boolean ok, String where, String rule) {
    if (!ok) {
      throw new IllegalArgumentException(where + ": " + rule);
    }
  }
}
