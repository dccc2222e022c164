package io.github.affinitykit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The agent's rules: separators, comments, globs, and a bad rule left out with one line. */
class ThreadRulesTest {
  private final List<String> errors = new ArrayList<>();

  private ThreadRules parse(String text) {
    return ThreadRules.parse(
        text,
        (glob, rule) -> {
          if (rule.contains("bad")) {
            throw new IllegalArgumentException(glob + ": " + rule + " (expected: good)");
          }
          return null;
        },
        errors::add);
  }

  @Test
  void shouldReadRulesSeparatedBySemicolonsOrLines() {
    ThreadRules rules = parse("a-*=count:1; b?=cpus:1\n# note\n\nc=count:2,placement:ANY");
    assertThat(rules.rules()).extracting(ThreadRules.Rule::glob).containsExactly("a-*", "b?", "c");
    assertThat(rules.rules().get(2).text()).isEqualTo("count:2,placement:ANY");
    assertThat(errors).isEmpty();
  }

  @Test
  void shouldMatchTheWholeNameByGlob() {
    ThreadRules rules =
        parse("data-plane-kafka-request-handler-*=count:1;x?y=count:1;*-io-*=count:1");
    assertThat(rules.match("data-plane-kafka-request-handler-7"))
        .map(ThreadRules.Rule::glob)
        .contains("data-plane-kafka-request-handler-*");
    assertThat(rules.match("data-plane-kafk")).isEmpty();
    assertThat(rules.match("xzy")).map(ThreadRules.Rule::glob).contains("x?y");
    assertThat(rules.match("xy")).isEmpty();
    assertThat(rules.match("nio-io-3")).map(ThreadRules.Rule::glob).contains("*-io-*");
    assertThat(rules.match("main")).isEmpty();
  }

  @Test
  void shouldLeaveOutABadRuleWithOneLine() {
    ThreadRules rules = parse("junk;a=bad;b=count:1;=count:1");
    assertThat(rules.rules()).extracting(ThreadRules.Rule::glob).containsExactly("b");
    assertThat(errors)
        .containsExactly(
            "junk (expected: <thread-name glob>=<group rule>)",
            "a: bad (expected: good)",
            "=count:1 (expected: <thread-name glob>=<group rule>)");
  }
}
