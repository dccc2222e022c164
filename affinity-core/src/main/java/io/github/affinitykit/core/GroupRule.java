package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.placement.Placement;
import io.github.affinitykit.core.placement.RunOutPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A group's placement written as text (docs/groups.md): options {@code key:value} separated by
 * commas, for example {@code count:4,placement:DIFFERENT_CORE,runout:SHARE}. A part without a colon
 * continues the value before it, so lists keep their commas: {@code cpus:2,4-5}, {@code
 * placement:SAME_SOCKET,ANY}, {@code memory:interleave 0,1}. The keys, each one of {@link
 * CpuGroupBuilder}'s options: {@code count} (at most that many CPUs held at once), {@code cpus}
 * (the pool), {@code explicit} (member <i>i</i> on the <i>i</i>-th CPU), {@code placement}, {@code
 * runout}, {@code memory}, {@code isolate}, {@code wholecores}, {@code unpinned} (pinning off, with
 * its reason) and {@code unpinned-mask} ({@code none}: leave the mask alone). The whole text is
 * read before anything is applied, so a bad rule never half-applies.
 *
 * <p>Thread safety: immutable.
 */
final class GroupRule {
  private static final List<String> KEYS =
      List.of(
          "count",
          "cpus",
          "explicit",
          "placement",
          "runout",
          "memory",
          "isolate",
          "wholecores",
          "unpinned",
          "unpinned-mask");

  private final String text;
  private final Map<String, Object> options;

  private GroupRule(String text, Map<String, Object> options) {
    this.text = text;
    this.options = options;
  }

  /**
   * Reads {@code text}; {@code source} names where it came from in errors: {@code
   * affinitykit.group.x: count:0 (expected: a positive number of CPUs)}.
   */
  static GroupRule parse(String source, String text) {
    Map<String, String> raw = new LinkedHashMap<>();
    String key = null;
    for (String part : text.split(",", -1)) {
      int colon = part.indexOf(':');
      if (colon < 0 && key != null) {
        raw.put(key, raw.get(key) + "," + part);
        continue;
      }
      if (colon < 0
          || !KEYS.contains(key = part.substring(0, colon).trim())
          || raw.containsKey(key)) {
        throw error(source, part, "key:value, each key once, keys " + KEYS);
      }
      raw.put(key, part.substring(colon + 1));
    }
    Map<String, Object> options = new LinkedHashMap<>();
    raw.forEach((k, v) -> options.put(k, value(source, k, v.trim())));
    if (options.containsKey("explicit") && options.containsKey("count")) {
      throw error(source, "count:" + raw.get("count"), "no count beside explicit CPUs");
    }
    return new GroupRule(text.trim(), Map.copyOf(options));
  }

  private static Object value(String source, String key, String v) {
    String option = key + ":" + v;
    try {
      return switch (key) {
        case "count" -> positive(v);
        case "cpus" -> nonEmpty(CpuSet.parse(v));
        case "explicit" -> explicit(v);
        case "placement" -> placements(v);
        case "runout" -> RunOutPolicy.valueOf(v.toUpperCase(Locale.ROOT));
        case "memory" -> ThreadMemoryPolicy.named(v);
        case "isolate", "wholecores" -> bool(v);
        case "unpinned" -> nonEmpty(v);
        case "unpinned-mask" -> v.equals("none") ? CpuSet.empty() : nonEmpty(CpuSet.parse(v));
        default -> throw new IllegalArgumentException(key);
      };
    } catch (IllegalArgumentException e) {
      throw error(source, option, expected(key));
    }
  }

  /** What each key's value must be, as its error says. */
  private static String expected(String key) {
    return switch (key) {
      case "count" -> "a positive number of CPUs";
      case "cpus", "unpinned-mask" -> "a CPU list such as 2-5 or 0,2" + noneIf(key);
      case "explicit" -> "CPUs such as 2,3,3: member i on the i-th";
      case "placement" -> "placements of " + List.of(Placement.values());
      case "runout" -> "one of " + List.of(RunOutPolicy.values());
      case "memory" -> "a memory policy such as local, bind 0 or interleave 0,1";
      case "isolate", "wholecores" -> "true or false";
      case "unpinned" -> "the reason pinning is off";
      default -> "keys " + KEYS;
    };
  }

  private static String noneIf(String key) {
    return key.equals("unpinned-mask") ? ", or none" : "";
  }

  private static Object positive(String v) {
    int n = Integer.parseInt(v);
    if (n <= 0) {
      throw new IllegalArgumentException(v);
    }
    return n;
  }

  private static String nonEmpty(String reason) {
    if (reason.isEmpty()) {
      throw new IllegalArgumentException("empty");
    }
    return reason;
  }

  private static CpuSet nonEmpty(CpuSet cpus) {
    if (cpus.isEmpty()) {
      throw new IllegalArgumentException("empty");
    }
    return cpus;
  }

  private static Object explicit(String v) {
    List<Integer> cpus = new ArrayList<>();
    for (String cpu : v.split(",", -1)) {
      cpus.add(Integer.parseInt(cpu.trim()));
      if (cpus.get(cpus.size() - 1) < 0) {
        throw new IllegalArgumentException(cpu);
      }
    }
    return List.copyOf(cpus);
  }

  private static Object placements(String v) {
    List<Placement> placements = new ArrayList<>();
    for (String p : v.split(",", -1)) {
      placements.add(Placement.fromName(p.trim().toUpperCase(Locale.ROOT)));
    }
    return List.copyOf(placements);
  }

  private static Object bool(String v) {
    if (!v.equals("true") && !v.equals("false")) {
      throw new IllegalArgumentException(v);
    }
    return Boolean.valueOf(v);
  }

  private static IllegalArgumentException error(String source, String option, String rule) {
    return new IllegalArgumentException(source + ": " + option + " (expected: " + rule + ")");
  }

  /**
   * Sets on {@code b} the options this rule names; a rule that names where the group goes ({@code
   * count}, {@code cpus} or {@code explicit}) first clears where the code put it, so the group is
   * where the rule says.
   */
  @SuppressWarnings("unchecked")
  void applyTo(CpuGroupBuilder b) {
    if (options.containsKey("count")
        || options.containsKey("cpus")
        || options.containsKey("explicit")) {
      b.where(Optional.empty(), List.of(), 0);
    }
    options.forEach(
        (k, v) -> {
          switch (k) {
            case "count" -> b.count((Integer) v);
            case "cpus" -> b.pool((CpuSet) v);
            case "explicit" ->
                b.cpus(((List<Integer>) v).stream().mapToInt(Integer::intValue).toArray());
            case "placement" -> b.placements((List<Placement>) v);
            case "runout" -> b.runOut((RunOutPolicy) v);
            case "memory" -> b.memoryPolicy((ThreadMemoryPolicy) v);
            case "isolate" -> b.isolate((Boolean) v);
            case "wholecores" -> b.wholeCores((Boolean) v);
            case "unpinned" -> b.unpinned((String) v);
            default -> b.unpinnedMask((CpuSet) v);
          }
        });
  }

  /** {@return the rule as written, trimmed} */
  @Override
  public String toString() {
    return text;
  }
}
