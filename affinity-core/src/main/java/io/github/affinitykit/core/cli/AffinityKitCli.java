package io.github.affinitykit.core.cli;

import io.github.affinitykit.core.HostCpus;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The command line: {@code java -jar affinity-core-<version>-cli.jar doctor [--json] [--root DIR]}.
 *
 * <p>Exit status: 0 when the report was printed (warnings included), 2 for a usage error or a
 * rejected pool override, 1 when the host could not be read.
 *
 * <p>Thread safety: {@link #run} has no shared state; call it from any thread.
 */
public final class AffinityKitCli {
  private static final String USAGE =
      "usage: affinity-kit doctor [--json] [--root DIR]\n"
          + "  doctor      explain this host's CPUs: topology, isolation, the pinning pool, warnings\n"
          + "  --json      print the report as JSON\n"
          + "  --root DIR  read sys/ and proc/ under DIR (a sysfs dump) instead of /\n";

  private AffinityKitCli() {}

  /** Runs the CLI and exits with its status. */
  public static void main(String[] args) {
    System.exit(run(List.of(args), System.out, System.err));
  }

  /**
   * Runs the CLI.
   *
   * @return the exit status
   */
  public static int run(List<String> args, PrintStream out, PrintStream err) {
    if (args.isEmpty() || args.contains("--help") || args.contains("-h")) {
      (args.isEmpty() ? err : out).print(USAGE);
      return args.isEmpty() ? 2 : 0;
    }
    if (!args.get(0).equals("doctor")) {
      err.print("unknown command: " + args.get(0) + " (expected: doctor)\n" + USAGE);
      return 2;
    }
    boolean json = false;
    Path root = Path.of("/");
    for (int i = 1; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals("--json")) {
        json = true;
      } else if (a.equals("--root") && i + 1 < args.size()) {
        root = Path.of(args.get(++i));
        if (!Files.isDirectory(root.resolve("sys")) && !Files.isDirectory(root.resolve("proc"))) {
          err.println("--root: " + root + " (expected: a directory holding sys/ or proc/)");
          return 2;
        }
      } else {
        err.print("unknown option: " + a + " (expected: --json, --root DIR)\n" + USAGE);
        return 2;
      }
    }
    return doctor(root, json, out, err);
  }

  private static int doctor(Path root, boolean json, PrintStream out, PrintStream err) {
    HostCpus host;
    try {
      host = HostCpus.probe(root);
    } catch (RuntimeException e) {
      err.println("doctor: cannot read the host under " + root + ": " + e);
      return 1;
    }
    String label = root.toString().equals("/") ? "this host" : root.toString();
    out.print(json ? DoctorJson.render(host, label) : DoctorText.render(host, label));
    try {
      host.pool();
      return 0;
    } catch (IllegalArgumentException e) {
      return 2;
    }
  }
}
