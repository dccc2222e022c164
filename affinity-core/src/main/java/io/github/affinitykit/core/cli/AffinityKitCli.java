package io.github.affinitykit.core.cli;

import io.github.affinitykit.core.AffinityBackend;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuPool;
import io.github.affinitykit.core.CpuReservations;
import io.github.affinitykit.core.HostCpus;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
      "usage: affinity-kit doctor [--json] [--root DIR] [--audit-ms N]\n"
          + "  doctor        explain this host's CPUs: topology, isolation, the pool, warnings,\n"
          + "                an exclusivity audit of the pool and this JVM's threads\n"
          + "  --json        print the report as JSON (no audit)\n"
          + "  --root DIR    read sys/ and proc/ under DIR (a sysfs dump) instead of /; no audit\n"
          + "  --audit-ms N  audit window in ms (default 200; 0 skips the audit)\n";

  private AffinityKitCli() {}

  /**
   * Returns the doctor's report for the running JVM: the host, the kit's pool, an audit of the pool
   * over {@code auditWindow} (zero skips it) and this JVM's threads with the CPUs they may use.
   * Call it from an application to see where its threads really run. Blocks for the window.
   */
  public static String explain(AffinityKit kit, Duration auditWindow) {
    return DoctorText.render(kit.host(), "this JVM (pid " + ProcessHandle.current().pid() + ")")
        + DoctorLive.render(kit, auditWindow);
  }

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
    long auditMs = 200;
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
      } else if (a.equals("--audit-ms") && i + 1 < args.size()) {
        String v = args.get(++i);
        if (!v.matches("\\d{1,6}")) {
          err.println("--audit-ms: " + v + " (expected: a whole number of ms, 0 to 999999)");
          return 2;
        }
        auditMs = Long.parseLong(v);
      } else {
        err.print(
            "unknown option: " + a + " (expected: --json, --root DIR, --audit-ms N)\n" + USAGE);
        return 2;
      }
    }
    return doctor(root, json, Duration.ofMillis(auditMs), out, err);
  }

  private static int doctor(
      Path root, boolean json, Duration audit, PrintStream out, PrintStream err) {
    HostCpus host;
    try {
      host = HostCpus.probe(root);
    } catch (RuntimeException e) {
      err.println("doctor: cannot read the host under " + root + ": " + e);
      return 1;
    }
    String label = root.toString().equals("/") ? "this host" : root.toString();
    out.print(json ? DoctorJson.render(host, label) : DoctorText.render(host, label));
    CpuPool pool;
    try {
      pool = host.pool();
    } catch (IllegalArgumentException e) {
      return 2;
    }
    if (!json && root.toString().equals("/")) {
      AffinityKit kit =
          AffinityKit.create(
              host, AffinityBackend.detect(), CpuReservations.inTempDirectory(), pool);
      out.print(DoctorLive.render(kit, audit));
    }
    return 0;
  }
}
