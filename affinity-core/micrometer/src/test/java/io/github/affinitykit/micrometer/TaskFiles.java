package io.github.affinitykit.micrometer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the {@code /proc/<pid>/task/<tid>} files a {@code TaskReader} reads, in a fixture tree.
 */
final class TaskFiles {
  /** Process id of the fixture tasks. */
  static final int PID = 4242;

  private final Path root;

  TaskFiles(Path root) {
    this.root = root;
  }

  /** Thread {@code tid}: {@code userTicks} + {@code systemTicks} of 10 ms, its switches. */
  TaskFiles task(int tid, int userTicks, int systemTicks, long voluntary, long involuntary) {
    String dir = "proc/" + PID + "/task/" + tid + "/";
    file(dir + "stat", stat(tid, "pinned", userTicks, systemTicks, 1));
    return file(
        dir + "status",
        "Name:\tpinned\nvoluntary_ctxt_switches:\t"
            + voluntary
            + "\nnonvoluntary_ctxt_switches:\t"
            + involuntary
            + "\n");
  }

  /** Another process's one thread {@code pid}, last on {@code cpu}, allowed on {@code allowed}. */
  TaskFiles process(int pid, String name, int cpu, String allowed) {
    String dir = "proc/" + pid + "/task/" + pid + "/";
    file(dir + "stat", stat(pid, name, 1, 0, cpu));
    return file(dir + "status", "Name:\t" + name + "\nCpus_allowed_list:\t" + allowed + "\n");
  }

  private static String stat(int tid, String name, int userTicks, int systemTicks, int cpu) {
    return tid
        + " ("
        + name
        + ") S 1 1 1 0 -1 0 10 0 0 0 "
        + userTicks
        + " "
        + systemTicks
        + " 0 0 20 0 1 0 100 0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 "
        + cpu
        + " 0 0 0 0 0";
  }

  private TaskFiles file(String relative, String text) {
    try {
      Path p = root.resolve(relative);
      Files.createDirectories(p.getParent());
      Files.writeString(p, text);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Path root() {
    return root;
  }
}
