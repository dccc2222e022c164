package io.github.affinitykit.agent;

import io.github.affinitykit.core.CpuGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The agent's rules: {@code <thread-name glob>=<group rule>}, separated by {@code ;} or one per
 * line ({@code #} starts a comment line), each glob the name of the group its rule builds ({@code
 * *} any characters, {@code ?} one). The first rule whose glob matches a thread's whole name places
 * it. A rule that does not read is left out with one line to the error sink; the others stand. The
 * glob {@value Carriers#GLOB} names no thread: its rule places the virtual-thread scheduler's
 * carriers ({@link Carriers}).
 *
 * <p>Thread safety: immutable once parsed; {@link #match} may be called from any thread.
 */
final class ThreadRules {
  private final List<Rule> rules;
  private final Optional<Rule> carriers;

  private ThreadRules(List<Rule> rules, Optional<Rule> carriers) {
    this.rules = List.copyOf(rules);
    this.carriers = carriers;
  }

  /**
   * Reads {@code text}; {@code build} makes the group of a glob and a rule (throwing {@link
   * IllegalArgumentException} in the house form for a bad one), {@code errors} gets one line per
   * rule left out.
   */
  static ThreadRules parse(
      String text, BiFunction<String, String, CpuGroup> build, Consumer<String> errors) {
    List<Rule> rules = new ArrayList<>();
    Optional<Rule> carriers = Optional.empty();
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
      String options = rule.substring(eq + 1).trim();
      if (glob.equals(Carriers.GLOB) && carriers.isPresent()) {
        errors.accept(glob + ": " + options + " (expected: one " + glob + " rule)");
        continue;
      }
      try {
        Rule r = new Rule(glob, options, build.apply(glob, options));
        if (glob.equals(Carriers.GLOB)) {
          carriers = Optional.of(r);
        } else {
          rules.add(r);
        }
      } catch (RuntimeException e) {
        errors.accept(e.getMessage());
      }
    }
    return new ThreadRules(rules, carriers);
  }

  /**
   * {@return the rule placing {@code thread}: the carriers rule for a carrier when there is one,
   * else the first whose glob matches its name}
   */
  Optional<Rule> match(Thread thread) {
    return carriers.isPresent() && Carriers.isCarrier(thread) ? carriers : match(thread.getName());
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

  /** {@return the rules that read, in order, but the carriers rule} */
  List<Rule> rules() {
    return rules;
  }

  /** {@return the carriers rule, if one read} */
  Optional<Rule> carriers() {
    return carriers;
  }

  /** {@return whether no rule read} */
  boolean isEmpty() {
    return rules.isEmpty() && carriers.isEmpty();
  }

  @Override
  public String toString() {
    return Stream.concat(rules.stream(), carriers.stream())
        .map(r -> r.glob() + "=" + r.text())
        .toList()
        .toString();
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
