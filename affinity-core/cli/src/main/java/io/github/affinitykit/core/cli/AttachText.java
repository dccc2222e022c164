package io.github.affinitykit.core.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The text of {@code pin} and {@code threads}: a header line, then a table whose columns are as
 * wide as their widest cell, separated by two spaces; {@code -} where there is nothing to say.
 *
 * <p>Thread safety: stateless.
 */
final class AttachText {
  private AttachText() {}

  /** {@code pin --pid}: the rules the agent runs with and a row per thread a rule named. */
  static String pinned(long pid, AgentAnswer answer) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"THREAD", "TID", "CPU", "RULE", "STATUS", "REASON"});
    for (AgentAnswer.Row r : answer.rows()) {
      rows.add(
          new String[] {r.name(), num(r.tid()), num(r.cpu()), r.rule(), r.status(), r.reason()});
    }
    return "pid "
        + pid
        + ": the agent runs "
        + answer.rules()
        + "; "
        + answer.rows().size()
        + " threads named by a rule\n"
        + table(rows);
  }

  /**
   * {@code threads --pid}: every thread the kernel lists, with its Java name ({@code names}, by
   * kernel id; the kernel's 15 characters where missing), mask, last CPU, and rule and status where
   * the agent's answer has a row for it.
   */
  static String threads(
      long pid,
      List<ProcTasks.Task> tasks,
      Map<Integer, String> names,
      Optional<AgentAnswer> agent) {
    Map<Integer, AgentAnswer.Row> byTid =
        agent
            .map(a -> a.rows().stream())
            .orElse(java.util.stream.Stream.empty())
            .filter(r -> r.tid() > 0)
            .collect(Collectors.toMap(AgentAnswer.Row::tid, Function.identity(), (a, b) -> a));
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"TID", "THREAD", "MASK", "LAST", "RULE", "STATUS"});
    for (ProcTasks.Task t : tasks) {
      AgentAnswer.Row r = byTid.get(t.tid());
      String name = r != null ? r.name() : names.getOrDefault(t.tid(), t.comm());
      rows.add(
          new String[] {
            num(t.tid()),
            OneLineErrors.oneLine(name),
            t.mask(),
            num(t.lastCpu()),
            r == null ? "-" : r.rule(),
            r == null ? "-" : r.status()
          });
    }
    return "pid "
        + pid
        + ": "
        + tasks.size()
        + " threads; agent: "
        + agent.map(AgentAnswer::rules).orElse("none")
        + "\n"
        + table(rows);
  }

  /**
   * {@code threads --all}: a row per CPU with lock files in {@code dir}: its state, the holders the
   * kernel names, their process names ({@code comm}), and each holder's threads whose mask is that
   * CPU alone ({@code tasks}, by pid), then what each file claims.
   */
  static String locks(
      Path dir,
      List<LockTable.Entry> entries,
      Function<Long, String> comm,
      Function<Long, List<ProcTasks.Task>> tasks) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"CPU", "STATE", "PID", "PROCESS", "THREAD (mask = the CPU)", "FILES"});
    for (LockTable.Entry e : entries) {
      List<String> pids = new ArrayList<>();
      List<String> comms = new ArrayList<>();
      List<String> threads = new ArrayList<>();
      for (long pid : e.pids()) {
        pids.add(Long.toString(pid));
        comms.add(comm.apply(pid));
        for (ProcTasks.Task t : tasks.apply(pid)) {
          if (t.mask().equals(Integer.toString(e.cpu()))) {
            threads.add(t.tid() + " " + OneLineErrors.oneLine(t.comm()));
          }
        }
      }
      String holder = e.state().equals("HELD") && pids.isEmpty() ? "not visible" : "-";
      rows.add(
          new String[] {
            Integer.toString(e.cpu()),
            e.state(),
            pids.isEmpty() ? holder : String.join(",", pids),
            comms.isEmpty() ? "-" : String.join(",", comms),
            threads.isEmpty() ? "-" : String.join(", ", threads),
            String.join("; ", e.files())
          });
    }
    return "lock directory "
        + dir
        + ": "
        + entries.size()
        + " CPUs with lock files\n"
        + (entries.isEmpty() ? "" : table(rows));
  }

  private static String num(int n) {
    return n < 0 ? "-" : Integer.toString(n);
  }

  /** {@return {@code rows} as columns, the last one unpadded} */
  static String table(List<String[]> rows) {
    int columns = rows.get(0).length;
    int[] width = new int[columns];
    for (String[] r : rows) {
      for (int i = 0; i < columns; i++) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (String[] r : rows) {
      for (int i = 0; i < columns - 1; i++) {
        sb.append(r[i]).append(" ".repeat(width[i] - r[i].length() + 2));
      }
      sb.append(r[columns - 1]).append('\n');
    }
    return sb.toString();
  }
}
