package io.github.affinitykit.core;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The rule an operator gives a group outside the code ({@link GroupRule}'s grammar): the system
 * property {@code affinitykit.group.<name>} or the environment variable {@code
 * AFFINITYKIT_GROUP_<NAME>}, where {@code <NAME>} is the group's name upper-cased with every
 * character but {@code A-Z} and {@code 0-9} made {@code _} ({@code net.io-2}: {@code
 * AFFINITYKIT_GROUP_NET_IO_2}). Both set to different rules is refused, as is a variable that two
 * groups of this JVM map to ({@code net-io} and {@code net.io}); the property alone names exactly
 * one group.
 *
 * <p>Thread safety: safe for concurrent use (the variables taken are a concurrent map).
 */
final class GroupOverride {
  static final String PROPERTY = "affinitykit.group.";
  static final String VARIABLE = "AFFINITYKIT_GROUP_";

  /** Each variable a group of this JVM was placed by, with that group's name. */
  private static final Map<String, String> TAKEN = new ConcurrentHashMap<>();

  private GroupOverride() {}

  /** {@return the environment variable of group {@code name}} */
  static String variable(String name) {
    StringBuilder v = new StringBuilder(VARIABLE);
    for (char c : name.toUpperCase(Locale.ROOT).toCharArray()) {
      v.append((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? c : '_');
    }
    return v.toString();
  }

  /** As {@link #find(String, UnaryOperator, UnaryOperator, Map)} with this JVM's settings. */
  static Optional<Placed> find(String name) {
    return find(name, System::getProperty, System::getenv, TAKEN);
  }

  /**
   * Returns the rule that overrides group {@code name}, read from {@code properties} and {@code
   * env}; {@code taken} records the variable's group.
   *
   * @throws IllegalArgumentException for a bad rule, a property and a variable that disagree, or a
   *     variable another group's name maps to
   */
  static Optional<Placed> find(
      String name,
      UnaryOperator<String> properties,
      UnaryOperator<String> env,
      Map<String, String> taken) {
    String property = PROPERTY + name;
    String variable = variable(name);
    String p = properties.apply(property);
    String v = env.apply(variable);
    if (p != null && v != null && !p.trim().equals(v.trim())) {
      throw new IllegalArgumentException(
          String.format(
              "%s: %s (expected: the rule of %s, %s, or only one of them set)",
              property, p, variable, v));
    }
    if (v != null) {
      String other = Objects.requireNonNullElse(taken.putIfAbsent(variable, name), name);
      if (!other.equals(name)) {
        throw new IllegalArgumentException(
            String.format(
                "%s: group %s (expected: one group per variable; group %s maps to it too: set"
                    + " affinitykit.group.%s instead)",
                variable, name, other, name));
      }
    }
    String source = p != null ? property : variable;
    String text = p != null ? p : v;
    return text == null
        ? Optional.empty()
        : Optional.of(new Placed(source + "=" + text.trim(), GroupRule.parse(source, text)));
  }

  /**
   * A rule that overrides the code, with where it came from.
   *
   * @param origin {@code <property or variable>=<rule>}
   * @param rule the rule read
   */
  record Placed(String origin, GroupRule rule) {}
}
