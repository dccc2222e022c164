package io.github.affinitykit.core.cli;

import io.github.affinitykit.core.host.CpuPool;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.hostreport.HostReport;
import io.github.affinitykit.jitter.JitterReport;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code affinity-kit doctor}: the host's CPUs, this JVM's backend, the pool and why, warnings, and
 * (live host, text) an exclusivity audit and this JVM's threads.
 *
 * <p>Exit status 0 when the report was printed, 1 when the host could not be read, 2 for a bad
 * option or a rejected pool override: the report is still printed (it shows the pool's error in
 * place), and the error is the one line on the error stream.
 *
 * <p>Thread safety: one instance per run.
 */
@Command(
    name = "doctor",
    mixinStandardHelpOptions = true,
    versionProvider = KitVersion.class,
    sortOptions = false,
    description = {
      "Explain this host's CPUs and what pinning can do here.",
      "Topology, isolation, this JVM's backend, the pool and why, warnings; on the live host"
          + " (text), an exclusivity audit of the pool and this JVM's threads; with --jitter, the"
          + " gaps a pinned thread sees on each pool CPU and their causes; with --latency, the pool's"
          + " core-to-core latency matrix and the CPUs with the lowest handoff latency."
    })
final class DoctorCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(names = "--json", description = "print the report as JSON (no audit)")
  private boolean json;

  @Option(
      names = "--root",
      paramLabel = "DIR",
      description = "read sys/ and proc/ under DIR (a sysfs dump) instead of /; no audit")
  private Path root = Path.of("/");

  @Option(
      names = "--audit-ms",
      paramLabel = "N",
      description = "audit window in ms, 0 to 999999 (default ${DEFAULT-VALUE}; 0 skips the audit)")
  private int auditMs = DoctorRun.DEFAULT_AUDIT_MS;

  @Option(
      names = "--jitter",
      paramLabel = "DURATION",
      description =
          "sample the pool's CPUs for DURATION, 1s to 10m: one spinning thread pinned per CPU (a"
              + " busy CPU for the window), the worst gaps and their causes beside the audit's"
              + " verdict; this host only")
  private Duration jitter;

  @Option(
      names = "--latency",
      paramLabel = "N",
      description =
          "the pool's core-to-core latency matrix (measured once: two spinning threads pinned per"
              + " pair of CPUs; then read from the per-user cache) and the N CPUs of the pool with"
              + " the lowest handoff latency; this host only")
  private Integer latency;

  @Option(
      names = "--latency-refresh",
      description = "with --latency: measure the matrix again and replace the cached one")
  private boolean latencyRefresh;

  @Option(
      names = "--lock-dir",
      paramLabel = "DIR",
      description =
          "where --jitter's sampling threads take their CPU locks (default:"
              + " -Daffinitykit.lock.dir, AFFINITYKIT_LOCK_DIR, else java.io.tmpdir)")
  private Path lockDir;

  private final Supplier<AffinityBackend> backends;

  /** A doctor whose backend, when it needs one, comes from {@code backends}. */
  DoctorCommand(Supplier<AffinityBackend> backends) {
    this.backends = Objects.requireNonNull(backends, "backends");
  }

  private Optional<JitterReport> sample(HostCpus host, AffinityBackend backend, CpuPool pool) {
    CpuReservations locks =
        lockDir != null
            ? CpuReservations.inDirectory(lockDir)
            : CpuReservations.inConfiguredDirectory();
    return CommandLines.configured(
        spec, () -> DoctorJitter.sample(host, backend, pool, jitter, locks));
  }

  /** The isolations recorded on this machine, and whether their owners still run. */
  @Override
  public Integer call() {
    if (!Files.isDirectory(root.resolve("sys")) && !Files.isDirectory(root.resolve("proc"))) {
      throw CommandLines.badValue(spec, "--root", root, "a directory holding sys/ or proc/");
    }
    CommandLines.require(
        spec,
        auditMs >= 0 && auditMs <= DoctorRun.MAX_AUDIT_MS,
        "--audit-ms",
        auditMs,
        "a whole number of ms, 0 to " + DoctorRun.MAX_AUDIT_MS);
    if (jitter != null) {
      CommandLines.require(spec, JitterWindow.ok(jitter), "--jitter", jitter, JitterWindow.RULE);
      CommandLines.require(
          spec, DoctorRun.isLive(root), "--jitter", jitter, "no --root: it samples this host");
    }
    if (latency != null) {
      CommandLines.require(
          spec, DoctorRun.isLive(root), "--latency", latency, "no --root: it measures this host");
    }
    PrintWriter out = spec.commandLine().getOut();
    HostReport report;
    try {
      report = HostReport.of(HostCpus.diagnose(root));
    } catch (IllegalArgumentException e) {
      throw CommandLines.usageError(spec, e);
    } catch (RuntimeException e) {
      spec.commandLine().getErr().println("doctor: cannot read the host under " + root + ": " + e);
      return 1;
    }
    AffinityBackend backend = backends.get();
    HostCpus host = report.host();
    Optional<JitterReport> sampled =
        json && jitter != null
            ? sample(host, backend, CommandLines.configured(spec, host::pool))
            : Optional.empty();
    out.print(DoctorRun.report(report, root, json, backend, sampled));
    out.flush();
    CpuPool pool = CommandLines.configured(spec, host::pool);
    if (!json && DoctorRun.isLive(root)) {
      out.print(DoctorRun.live(host, backend, pool, auditMs));
      if (jitter != null) {
        out.flush();
        out.print(DoctorJitter.text(sample(host, backend, pool)));
      }
      if (latency != null) {
        out.flush();
        out.print(DoctorLatency.text(spec, host, backend, pool, latency, latencyRefresh));
      }
    }
    return 0;
  }
}
