package io.github.affinitykit.agent;

import io.github.affinitykit.core.CpuGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * The agent's rules: {@code <thread-name glob>=<group rule>}, separated by {@code ;} or one per
 * line ({@code #} starts a comment line), each glob the name of the group its rule builds ({@code
 * *} any characters, {@code ?} one). The first rule whose glob matches a thread's whole name places
 * it. A rule that does not read is left out with one line to the error sink; the others stand.
 *
 * <p>Thread safety: immutable once parsed; {@link #match} may be called from any thread.
 */
final class ThreadRules {
  private final List<Rule> rules;

  private ThreadRules(List<Rule> rules) {
    this.rules = List.copyOf(rules);
  }

  /**
   * Reads {@code text}; {@code build} makes the group of a glob and a rule (throwing {@link
   * IllegalArgumentException} in the house form for a bad one), {@code errors} gets one line per
   * rule left out.
   */
  static ThreadRules parse(
      String text, BiFunction<String, String, CpuGroup> build, Consumer<String> errors) {
    List<Rule> rules = new ArrayList<>();
    for (String item : text.split("[;\\n]")) {
      String rule = item.trim();
      if (rule.isEmpty() || rule.startsWith("#")) {
        continue;
      }
      int eq = rule.indexOf('=');
      if (eq <= 0) {
        errors.accept(rule + " (expected: <thread-name glob>=<group rule>)");
        continue;
      }
      String glob = rule.substring(0, eq).trim();
      try {
        rules.add(
            new Rule(
                glob,
                rule.substring(eq + 1).trim(),
                build.apply(glob, rule.substring(eq + 1).trim())));
      } catch (RuntimeException e) {
        errors.accept(e.getMessage());
      }
    }
    return new ThreadRules(rules);
  }

  /** {@return the first rule matching {@code name}, if any} */
  Optional<Rule> match(String name) {
    for (Rule r : rules) {
      if (r.matches(name)) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }

  /** {@return the rules that read, in order} */
  List<Rule> rules() {
    return rules;
  }

  @Override
  public String toString() {
    return rules.stream().map(r -> r.glob() + "=" + r.text()).toList().toString();
  }

  /**
   * One rule: the threads its glob matches join its group.
   *
   * @param glob the thread-name pattern, also the group's name
   * @param text the group rule as written
   * @param group the group its threads join
   */
  record Rule(String glob, String text, CpuGroup group) {
    /** {@return whether {@code name}, whole, matches the glob} */
    boolean matches(String name) {
      return glob(glob, 0, name, 0);
    }

    private static boolean glob(String g, int gi, String s, int si) {
      while (gi < g.length()) {
        char c = g.charAt(gi);
        if (c == '*') {
          for (int k = s.length(); k >= si; k--) {
            if (glob(g, gi + 1, s, k)) {
              return true;
            }
          }
          return false;
        }
        if (si == s.length() || (c != '?' && c != s.charAt(si))) {
          return false;
        }
        gi++;
        si++;
      }
      return si == s.length();
    }
  }
}
