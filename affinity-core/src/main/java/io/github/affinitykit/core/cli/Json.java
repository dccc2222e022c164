package io.github.affinitykit.core.cli;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON serialiser for the doctor's report: maps (insertion order kept), lists, strings,
 * numbers, booleans. Core has no dependencies, so no JSON library.
 *
 * <p>Thread safety: stateless.
 */
final class Json {
  private Json() {}

  /** Serialises {@code value}, indented by two spaces per level. */
  static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value, 0);
    return sb.append('\n').toString();
  }

  private static void write(StringBuilder sb, Object v, int depth) {
    if (v instanceof Map<?, ?> map) {
      writeMap(sb, map, depth);
    } else if (v instanceof List<?> list) {
      writeList(sb, list, depth);
    } else if (v instanceof Number || v instanceof Boolean) {
      sb.append(v);
    } else {
      string(sb, String.valueOf(v));
    }
  }

  private static void writeMap(StringBuilder sb, Map<?, ?> map, int depth) {
    if (map.isEmpty()) {
      sb.append("{}");
      return;
    }
    sb.append("{\n");
    Iterator<? extends Map.Entry<?, ?>> it = map.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<?, ?> e = it.next();
      indent(sb, depth + 1);
      string(sb, String.valueOf(e.getKey()));
      sb.append(": ");
      write(sb, e.getValue(), depth + 1);
      sb.append(it.hasNext() ? ",\n" : "\n");
    }
    indent(sb, depth);
    sb.append('}');
  }

  private static void writeList(StringBuilder sb, List<?> list, int depth) {
    boolean flat = list.stream().noneMatch(x -> x instanceof Map || x instanceof List);
    if (list.isEmpty() || flat) {
      sb.append('[');
      for (int i = 0; i < list.size(); i++) {
        sb.append(i == 0 ? "" : ", ");
        write(sb, list.get(i), depth);
      }
      sb.append(']');
      return;
    }
    sb.append("[\n");
    for (int i = 0; i < list.size(); i++) {
      indent(sb, depth + 1);
      write(sb, list.get(i), depth + 1);
      sb.append(i + 1 < list.size() ? ",\n" : "\n");
    }
    indent(sb, depth);
    sb.append(']');
  }

  private static void indent(StringBuilder sb, int depth) {
    sb.append("  ".repeat(depth));
  }

  private static void string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
