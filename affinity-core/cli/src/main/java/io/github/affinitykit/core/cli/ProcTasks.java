package io.github.affinitykit.core.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The kernel's view of a process's threads, read from {@code <proc>/<pid>/task/<tid>/}: the name
 * the kernel keeps ({@code comm}: 15 characters, a rename by another thread never reaches it), the
 * mask ({@code status}: {@code Cpus_allowed_list}) and the CPU it last ran on ({@code stat}: field
 * 39, {@code processor}). A thread that ended while it was read is left out.
 *
 * <p>Thread safety: stateless.
 */
final class ProcTasks {
  private ProcTasks() {}

  /**
   * One thread as the kernel shows it.
   *
   * @param tid its kernel id
   * @param comm the kernel's name of it, at most 15 characters
   * @param mask the CPUs it may run on, as the kernel lists them ({@code 0-3,8})
   * @param lastCpu the CPU it last ran on; -1 if unknown
   */
  record Task(int tid, String comm, String mask, int lastCpu) {}

  /** {@return the threads of process {@code pid} under {@code proc}, by kernel id} */
  static List<Task> of(Path proc, long pid) throws IOException {
    List<Task> tasks = new ArrayList<>();
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(proc.resolve(pid + "/task"))) {
      for (Path t : dir) {
        read(t).ifPresent(tasks::add);
      }
    }
    tasks.sort(Comparator.comparingInt(Task::tid));
    return tasks;
  }

  /** {@return the thread in {@code task}, empty if it ended meanwhile or is not a thread's} */
  static Optional<Task> read(Path task) {
    String name = task.getFileName().toString();
    if (!name.chars().allMatch(Character::isDigit)) {
      return Optional.empty();
    }
    try {
      String comm = Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).strip();
      return Optional.of(
          new Task(
              Integer.parseInt(name),
              comm,
              mask(Files.readAllLines(task.resolve("status"), StandardCharsets.UTF_8)),
              lastCpu(Files.readString(task.resolve("stat"), StandardCharsets.UTF_8))));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty(); // the thread ended between the listing and the reads
    }
  }

  /** {@return {@code Cpus_allowed_list} of a {@code status} file's lines, {@code ?} if none} */
  static String mask(List<String> status) {
    for (String line : status) {
      if (line.startsWith("Cpus_allowed_list:")) {
        return line.substring(line.indexOf(':') + 1).strip();
      }
    }
    return "?";
  }

  /**
   * {@return field 39 ({@code processor}) of a {@code stat} line, -1 if it has none} The name
   * (field 2) is in parentheses and may hold spaces and parentheses: the fields are counted after
   * the last {@code )}.
   */
  static int lastCpu(String stat) {
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      return -1;
    }
    String[] fields = stat.substring(close + 1).strip().split("\\s+");
    int index = 39 - 3; // fields[0] is field 3 (state)
    return fields.length > index && fields[index].matches("\\d+")
        ? Integer.parseInt(fields[index])
        : -1;
  }
}
