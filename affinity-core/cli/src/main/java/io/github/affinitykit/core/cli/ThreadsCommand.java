package io.github.affinitykit.core.cli;

import io.github.affinitykit.core.reservation.CpuReservations;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code affinity-kit threads --pid PID}: every thread of a JVM with its Java name, kernel id,
 * mask, last CPU, and the agent's rule and lease status where the agent runs there; {@code threads
 * --all}: every reservation in the lock directory with its holder. Both read only; {@code --pid}
 * asks a JVM running the agent for its rows by loading the agent jar once more (nothing else
 * changes there).
 *
 * <p>Exit status: 0 printed, 1 something could not be read, 2 a bad option.
 *
 * <p>Thread safety: one instance per run.
 */
@Command(
    name = "threads",
    mixinStandardHelpOptions = true,
    versionProvider = KitVersion.class,
    sortOptions = false,
    description = {
      "List the threads of a JVM (--pid: Java name, kernel id, mask, last CPU, the agent's rule and"
          + " status where it runs), or every CPU reservation in the lock directory (--all: CPU,"
          + " holder pid, process, threads on that CPU alone, stale and unreadable files).",
      "Read only; names come from jcmd PID Thread.print (the JVM's user or root)."
    })
final class ThreadsCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(names = "--pid", paramLabel = "PID", description = "the JVM whose threads to list")
  private Long pid;

  @Option(names = "--all", description = "every reservation in the lock directory")
  private boolean all;

  @Option(
      names = "--lock-dir",
      paramLabel = "DIR",
      description =
          "the lock directory for --all (default: -Daffinitykit.lock.dir, AFFINITYKIT_LOCK_DIR,"
              + " else java.io.tmpdir)")
  private Path lockDir;

  @Mixin private AgentJarOption agent = new AgentJarOption();

  private final Path proc;

  /** Reads the kernel's files under {@code proc} ({@code /proc}; tests give a fixture tree). */
  ThreadsCommand(Path proc) {
    this.proc = proc;
  }

  @Override
  public Integer call() throws IOException, InterruptedException {
    CommandLines.require(
        spec, (pid != null) != all, "--pid", pid == null ? "none" : pid, "--pid PID or --all");
    PrintWriter out = spec.commandLine().getOut();
    if (all) {
      Path dir =
          CommandLines.configured(
                  spec,
                  () ->
                      lockDir != null
                          ? CpuReservations.inDirectory(lockDir)
                          : CpuReservations.inConfiguredDirectory())
              .directory();
      CommandLines.require(spec, Files.isDirectory(dir), "--lock-dir", dir, "a directory");
      out.print(AttachText.locks(dir, LockTable.read(dir, proc), this::comm, this::tasks));
      return 0;
    }
    List<ProcTasks.Task> tasks = tasks(pid);
    CommandLines.require(spec, !tasks.isEmpty(), "--pid", pid, "a running process of this user");
    Optional<AgentAnswer> rows = Optional.empty();
    try (TargetJvm jvm = CommandLines.configured(spec, () -> TargetJvm.attach(pid))) {
      if (jvm.agentRules().isPresent()) {
        rows = Optional.of(jvm.ask(agent.jar(spec), ""));
      }
    }
    Map<Integer, String> names;
    try {
      names = ThreadDump.of(pid);
    } catch (IOException e) {
      names = Map.of();
      spec.commandLine()
          .getErr()
          .println(OneLineErrors.oneLine("names: the kernel's 15 characters, " + e.getMessage()));
    }
    out.print(AttachText.threads(pid, tasks, names, rows));
    return 0;
  }

  private List<ProcTasks.Task> tasks(long p) {
    try {
      return ProcTasks.of(proc, p);
    } catch (IOException e) {
      return List.of();
    }
  }

  private String comm(long p) {
    try {
      return OneLineErrors.oneLine(
          Files.readString(proc.resolve(p + "/comm"), StandardCharsets.UTF_8).strip());
    } catch (IOException e) {
      return "?";
    }
  }
}
