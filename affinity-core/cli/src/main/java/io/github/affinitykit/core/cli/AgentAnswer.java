package io.github.affinitykit.core.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The agent's answer to {@code pin --pid} or {@code threads --pid}, read from the report file it
 * wrote (the agent's {@code AttachReport}: one line per fact, fields separated by tabs, control
 * characters already escaped): its outcome, the rules it runs with, the rules it refused and a row
 * per thread a rule named.
 *
 * <p>Thread safety: immutable.
 *
 * @param outcome {@code PINNED}, {@code REFUSED}, {@code RUNNING} (it ran already), {@code NONE}
 *     (no agent, no rules given); {@code INCOMPLETE} when the file had no {@code end} line
 * @param rules the rules the agent runs with, or {@code none}
 * @param errors the rules it refused, one line each in the house form
 * @param rows the threads a rule named
 */
record AgentAnswer(String outcome, String rules, List<String> errors, List<Row> rows) {
  /**
   * One thread a rule named.
   *
   * @param tid its kernel id, -1 when not bound
   * @param name its Java name
   * @param cpu the CPU of its lease, -1 if none
   * @param rule {@code glob=group rule}
   * @param status its lease's status, or {@code NOT_BOUND}
   * @param reason why
   */
  record Row(int tid, String name, int cpu, String rule, String status, String reason) {}

  AgentAnswer {
    errors = List.copyOf(errors);
    rows = List.copyOf(rows);
  }

  /** {@return the answer in the report file's {@code lines}} */
  static AgentAnswer parse(List<String> lines) {
    String outcome = "INCOMPLETE";
    String rules = "none";
    List<String> errors = new ArrayList<>();
    List<Row> rows = new ArrayList<>();
    for (String line : lines) {
      String[] f = line.split("\t", -1);
      switch (f[0]) {
        case "end" -> outcome = field(f, 1);
        case "rules" -> rules = field(f, 1);
        case "error" -> errors.add(field(f, 1));
        case "row" -> {
          if (f.length == 7) {
            rows.add(new Row(number(f[1]), f[2], number(f[3]), f[4], f[5], f[6]));
          }
        }
        default -> {
          // a later agent's fact: skipped
        }
      }
    }
    return new AgentAnswer(outcome, rules, errors, rows);
  }

  private static String field(String[] f, int i) {
    return f.length > i ? f[i] : "";
  }

  private static int number(String text) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
