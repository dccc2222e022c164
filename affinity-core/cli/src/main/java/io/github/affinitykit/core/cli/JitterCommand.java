package io.github.affinitykit.core.cli;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.CpuPool;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code affinity-kit jitter}: seed 000's experiment in time ({@link JitterExperiment}), printed by
 * {@link JitterTable}.
 *
 * <p>Exit status 0 when the table was printed (arms refused included), 2 for a bad option or CPU
 * list.
 *
 * <p>Thread safety: one instance per run.
 */
@Command(
    name = "jitter",
    mixinStandardHelpOptions = true,
    versionProvider = KitVersion.class,
    sortOptions = false,
    description = {
      "The jitter a spinning thread sees on the same CPUs under the same noise: unpinned, pinned,"
          + " exclusive (this JVM confined off them), isolated (root and --isolated), and"
          + " OpenHFT's MicroJitterSampler as the anchor; max gap, p99.99 and time lost per arm.",
      "Each sampling thread is a busy CPU for its window; the anchor runs 30 s per round more."
    })
final class JitterCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(
      names = "--cpus",
      paramLabel = "CPUS",
      description = "the CPUs to sample, a kernel cpu list (default: the pool's last CPU)")
  private CpuSet cpus;

  @Option(
      names = "--window",
      paramLabel = "DURATION",
      description = "each arm's window, 1s to 10m (default ${DEFAULT-VALUE})")
  private Duration window = Duration.ofSeconds(5);

  @Option(
      names = "--noise",
      paramLabel = "N",
      description =
          "busy unpinned threads of this JVM beside every arm, 0 to 256 (default: one per"
              + " CPU sampled)")
  private int noise = -1;

  @Option(
      names = "--anchor-rounds",
      paramLabel = "N",
      description =
          "MicroJitterSampler's 30 s rounds after its 30 s warm-up, 0 (skip) to 10"
              + " (default ${DEFAULT-VALUE})")
  private int anchorRounds = 1;

  @Option(
      names = "--isolated",
      description =
          "run the isolated arm too (root: isolates the CPUs at runtime, which changes"
              + " the whole machine until the arm ends)")
  private boolean isolated;

  @Option(
      names = "--no-audit",
      description =
          "skip the audit of who else ran on the CPUs beside each pinned arm: it scans every"
              + " task up to 20 times a window, more than a slow machine (an emulator) finishes"
              + " in it")
  private boolean noAudit;

  @Option(
      names = "--lock-dir",
      paramLabel = "DIR",
      description =
          "where the CPU locks are taken, the kit's and MicroJitterSampler's (default:"
              + " -Daffinitykit.lock.dir, AFFINITYKIT_LOCK_DIR, else java.io.tmpdir)")
  private Path lockDir;

  private final Supplier<AffinityBackend> backends;

  JitterCommand(Supplier<AffinityBackend> backends) {
    this.backends = Objects.requireNonNull(backends, "backends");
  }

  @Override
  public Integer call() {
    CommandLines.require(spec, JitterWindow.ok(window), "--window", window, JitterWindow.RULE);
    CommandLines.require(spec, noise >= -1 && noise <= 256, "--noise", noise, "0 to 256");
    CommandLines.require(
        spec,
        anchorRounds >= 0 && anchorRounds <= MicroJitterAnchor.MAX_ROUNDS,
        "--anchor-rounds",
        anchorRounds,
        "0 to " + MicroJitterAnchor.MAX_ROUNDS);
    HostCpus host = CommandLines.configured(spec, HostCpus::probe);
    CpuPool pool = CommandLines.configured(spec, host::pool);
    CpuSet sampled = cpus;
    if (sampled == null) {
      CommandLines.require(spec, !pool.isEmpty(), "pool", pool.cpus(), "at least one CPU");
      sampled = CpuSet.of(pool.cpus().last());
    }
    CommandLines.require(
        spec,
        !sampled.isEmpty() && host.reachable().containsAll(sampled),
        "--cpus",
        sampled,
        "CPUs this process can reach, " + host.reachable());
    Path locks = lockDir != null ? lockDir : CpuReservations.inConfiguredDirectory().directory();
    AffinityKit kit =
        AffinityKit.create(
            host, backends.get(), CpuReservations.inDirectory(locks), host.pool(sampled));
    int busy = noise >= 0 ? noise : sampled.size();
    JitterExperiment.Plan plan =
        new JitterExperiment.Plan(sampled, window, busy, anchorRounds, isolated, !noAudit, locks);
    PrintWriter out = spec.commandLine().getOut();
    out.println(
        "jitter: up to 4 arms of "
            + JitterTable.length(window.toNanos())
            + (anchorRounds == 0
                ? ""
                : ", then the anchor for "
                    + MicroJitterAnchor.duration(anchorRounds).toSeconds()
                    + " s")
            + " on CPUs "
            + sampled);
    out.flush();
    JitterRun run = new JitterExperiment(kit, plan, JitterExperiment.effectiveUid()).run();
    out.print(JitterTable.render(run));
    out.flush();
    return 0;
  }
}
