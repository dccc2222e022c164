package io.github.affinitykit.core.cli;

import io.github.affinitykit.audit.TaskReader;
import io.github.affinitykit.core.internal.natives.ThreadCalls;
import io.github.affinitykit.isolation.Change;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * Runs {@code isolate}'s COMMAND on the isolated CPUs: starts it stopped ({@code /bin/sh -c 'kill
 * -STOP $$; exec "$@"'}: the shell stops itself with its builtin, then becomes COMMAND), lets it
 * onto the CPUs while it cannot run, then resumes it with {@code kill(pid, SIGCONT)}. If it cannot
 * be let on (the kernel refused to move it into the partition, or to bind it), it is killed with
 * SIGKILL before it ran and the reason is said: a refused child never stays stopped. The shell is
 * an absolute path and the signals are system calls: nothing is looked up on root's {@code PATH}
 * but COMMAND itself.
 *
 * <p>Thread safety: one instance per run.
 */
final class StoppedCommand {
  /** The shell that starts COMMAND stopped. */
  static final Path SHELL = Path.of("/bin/sh");

  /** Exit status when COMMAND was killed before it ran. */
  static final int NOT_RUN = 1;

  private final Path shell;
  private final ThreadCalls calls;

  /** Starts commands through {@code shell}, signalling them through {@code calls}. */
  StoppedCommand(Path shell, ThreadCalls calls) {
    this.shell = Objects.requireNonNull(shell, "shell");
    this.calls = Objects.requireNonNull(calls, "calls");
  }

  /** Why no command can be started so through {@code shell}; empty if one can. */
  static Optional<String> unavailable(Path shell) {
    return Files.isExecutable(shell)
        ? Optional.empty()
        : Optional.of(
            "shell: "
                + shell
                + " (expected: an executable file, which starts COMMAND stopped; nothing isolated)");
  }

  /**
   * Runs {@code command}: started stopped, placed by {@code admit} (given its pid; a {@link
   * Change.Outcome#FAILED} change, or an exception, refuses it), resumed, waited for.
   *
   * @return COMMAND's exit status; {@link #NOT_RUN} if it was refused and killed (said on {@code
   *     err})
   */
  int run(List<String> command, IntFunction<Change> admit, PrintWriter err)
      throws IOException, InterruptedException {
    List<String> cmd =
        new ArrayList<>(List.of(shell.toString(), "-c", "kill -STOP $$; exec \"$@\""));
    cmd.add("sh");
    cmd.addAll(command);
    Process p = new ProcessBuilder(cmd).inheritIO().start();
    int pid = (int) p.pid();
    while (p.isAlive() && !stopped(pid)) {
      Thread.onSpinWait(); // the shell stops itself within microseconds
    }
    Optional<String> refused = placed(admit, pid);
    if (refused.isPresent()) {
      p.destroyForcibly(); // SIGKILL: ends it stopped, before COMMAND ran
      p.waitFor();
      err.println("isolate: " + String.join(" ", command) + ": not run: " + refused.get());
      err.flush();
      return NOT_RUN;
    }
    int sent = calls.kill(pid, ThreadCalls.SIGCONT);
    if (sent < 0 && p.isAlive()) {
      p.destroyForcibly(); // never left stopped
      throw new IOException("kill(" + pid + ", SIGCONT): errno " + -sent + "; killed it");
    }
    return p.waitFor();
  }

  /** Why {@code admit} refused {@code pid}; empty if it was let on. */
  private static Optional<String> placed(IntFunction<Change> admit, int pid) {
    try {
      Change c = admit.apply(pid);
      return c.outcome() == Change.Outcome.FAILED
          ? Optional.of("cannot let it onto the isolated CPUs: " + c.detail())
          : Optional.empty();
    } catch (RuntimeException e) { // the bind's AffinityException
      return Optional.of("cannot bind it to the isolated CPUs: " + e.getMessage());
    }
  }

  /** Whether the process is stopped: its main thread's stat read bounded, as every host file. */
  private static boolean stopped(int pid) {
    // gone: the loop sees it is not alive
    return TaskReader.live().readStat(pid, pid).map(t -> t.state() == 'T').orElse(false);
  }
}
