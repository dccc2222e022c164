package io.github.affinitykit.core.cli;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.hostreport.HostReport;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * The command line: {@code java -jar affinity-core/cli/target/affinity-cli.jar doctor [--json]
 * [--root DIR] [--audit-ms N] [--jitter DURATION]}, {@code isolate CPUS [--dry-run] [--json] [--
 * COMMAND...]}, {@code release [--json]}, {@code jitter [--window DURATION] [--cpus CPUS]
 * [--isolated]}, {@code pin --pid PID [--agent PATH] RULES}, {@code threads (--pid PID | --all)
 * [--lock-dir DIR] [--agent PATH]} ({@code --help}, {@code --version}).
 *
 * <p>Exit status: 0 when the report was printed (warnings included), 2 for a usage error or a
 * rejected pool override (one line on the error stream), 1 when the host could not be read.
 *
 * <p>{@link #explain} needs no picocli (an application may print it beside its own report); {@link
 * #main} and {@link #run} need picocli on the class path (affinity-cli.jar bundles it).
 *
 * <p>Thread safety: {@link #run} has no shared state; call it from any thread.
 */
public final class AffinityKitCli {
  private AffinityKitCli() {}

  /**
   * Returns the doctor's report for the running JVM: the host, the kit's backend and pool, an audit
   * of the pool over {@code auditWindow} (zero skips it) and this JVM's threads with the CPUs they
   * may use. Call it from an application to see where its threads really run. Blocks for the
   * window.
   */
  public static String explain(AffinityKit kit, Duration auditWindow) {
    return DoctorText.render(
            HostReport.of(kit.host()),
            "this JVM (pid " + ProcessHandle.current().pid() + ")",
            kit.backend())
        + DoctorLive.render(kit, auditWindow);
  }

  /** Runs the CLI and exits with its status. */
  public static void main(String[] args) {
    System.exit(run(List.of(args), System.out, System.err));
  }

  /**
   * Runs the CLI with the platform's backend ({@link AffinityBackend#detect()}).
   *
   * @return the exit status
   */
  public static int run(List<String> args, PrintStream out, PrintStream err) {
    return run(args, out, err, AffinityBackend::detect);
  }

  /** Runs the CLI with the backend {@code backends} supplies (tests inject the no-op one). */
  static int run(
      List<String> args, PrintStream out, PrintStream err, Supplier<AffinityBackend> backends) {
    OptionalInt plain = DoctorRun.plain(args, out, backends); // no picocli: start-up
    if (plain.isPresent()) {
      return plain.getAsInt();
    }
    CommandLine cl = new CommandLine(new KitCommand());
    cl.addSubcommand(new DoctorCommand(backends));
    cl.addSubcommand(new IsolateCommand(backends));
    cl.addSubcommand(new ReleaseCommand(backends));
    cl.addSubcommand(new JitterCommand(backends));
    cl.addSubcommand(new PinCommand());
    cl.addSubcommand(new ThreadsCommand(Path.of("/proc")));
    cl.setExpandAtFiles(false); // pin's RULES may be @file, as -javaagent's: the command reads it
    return CommandLines.execute(cl, args, out, err);
  }
}
