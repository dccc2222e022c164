package io.github.affinitykit.core.cli;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.natives.NativeLayer;
import io.github.affinitykit.core.internal.natives.ThreadCalls;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.isolation.Change;
import io.github.affinitykit.isolation.Isolation;
import io.github.affinitykit.isolation.IsolationReport;
import io.github.affinitykit.isolation.IsolationStatus;
import io.github.affinitykit.isolation.Isolator;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code affinity-kit isolate CPUS [-- COMMAND...]}: makes CPUs exclusive at runtime ({@link
 * Isolator}), runs COMMAND on them (or holds them until interrupted), then puts everything back.
 * {@code --dry-run} prints the plan and changes nothing (no root needed).
 *
 * <p>Exit status: COMMAND's when one ran, else 0 when isolated (or planned) and released, 1 when
 * refused (nothing changed) or when COMMAND could not be let onto the CPUs (it is killed before it
 * ran, and the isolation undone; see {@link StoppedCommand}), 2 for a bad option or CPU list.
 *
 * <p>Thread safety: one instance per run.
 */
@Command(
    name = "isolate",
    mixinStandardHelpOptions = true,
    versionProvider = KitVersion.class,
    sortOptions = false,
    description = {
      "Make CPUS exclusive at runtime, no reboot, and put everything back afterwards.",
      "Changes the whole machine (root): other processes, IRQs and cgroups move off CPUS; the plan"
          + " is journaled before the first change. Runs COMMAND there (after --), or holds the"
          + " CPUs until Ctrl-C or SIGTERM."
    })
final class IsolateCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "CPUS",
      description = "the CPUs, a kernel cpu list (3, 2-3)")
  private CpuSet cpus;

  @Parameters(
      index = "1..*",
      paramLabel = "COMMAND",
      description = "a command to run on the isolated CPUs (put -- before it)")
  private List<String> command = new ArrayList<>();

  @Option(names = "--dry-run", description = "print the plan; change nothing")
  private boolean dryRun;

  @Mixin private IsolationOptions options = new IsolationOptions();

  private final Supplier<AffinityBackend> backends;

  IsolateCommand(Supplier<AffinityBackend> backends) {
    this.backends = Objects.requireNonNull(backends, "backends");
  }

  @Override
  public Integer call() throws Exception {
    AffinityBackend backend = backends.get();
    Isolator isolator = Isolator.live(backend).directory(options.journalDir());
    PrintWriter out = spec.commandLine().getOut();
    if (dryRun) {
      IsolationReport plan = CommandLines.configured(spec, () -> isolator.plan(cpus, Set.of()));
      out.print(options.json() ? IsolationJson.render(plan) : plan.text());
      out.flush();
      return plan.status() == IsolationStatus.PLANNED ? 0 : 1;
    }
    Optional<String> cannotRun = command.isEmpty() ? Optional.empty() : cannotRun();
    if (cannotRun.isPresent()) { // said before anything changes
      spec.commandLine().getErr().println("isolate: " + cannotRun.get());
      return 1;
    }
    Isolation iso = CommandLines.configured(spec, () -> isolator.isolate(cpus, Set.of()));
    out.print(options.json() ? IsolationJson.render(iso.report()) : iso.report().text());
    out.flush();
    if (!iso.isActive()) {
      return 1;
    }
    int status = command.isEmpty() ? hold(iso, out) : run(iso, backend);
    iso.close();
    out.print(options.json() ? IsolationJson.render(iso.released()) : iso.released().text());
    out.flush();
    return status;
  }

  /** Holds the CPUs until the JVM is asked to exit: the isolation's own hook undoes it then. */
  private int hold(Isolation iso, PrintWriter out) throws InterruptedException {
    out.println("holding CPUs " + iso.cpus() + ": Ctrl-C or SIGTERM puts everything back");
    out.flush();
    CountDownLatch forever = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  iso.close();
                  out.print(
                      options.json()
                          ? IsolationJson.render(iso.released())
                          : iso.released().text());
                  out.flush();
                },
                "isolate-release"));
    forever.await();
    return 0;
  }

  /** Why COMMAND could not be started stopped and resumed here; empty if it can. */
  private static Optional<String> cannotRun() {
    NativeLayer layer = NativeLayer.system();
    if (layer.threads().isEmpty()) {
      return Optional.of(
          "native layer: "
              + layer.name()
              + " (expected: one that can signal COMMAND: "
              + layer.why()
              + ")");
    }
    return StoppedCommand.unavailable(StoppedCommand.SHELL);
  }

  /** COMMAND on the isolated CPUs: let into the partition and bound there before it runs. */
  private int run(Isolation iso, AffinityBackend backend) throws IOException, InterruptedException {
    ThreadCalls calls = NativeLayer.system().threads().orElseThrow();
    return new StoppedCommand(StoppedCommand.SHELL, calls)
        .run(
            command,
            pid -> {
              Change admitted = iso.admit(pid);
              if (admitted.outcome() != Change.Outcome.FAILED) {
                backend.setAffinity(pid, iso.cpus());
              }
              return admitted;
            },
            spec.commandLine().getErr());
  }
}
