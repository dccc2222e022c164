package io.github.affinitykit.core.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The top of {@code affinity-kit}: only subcommands ({@link DoctorCommand doctor}, {@link
 * IsolateCommand isolate}, {@link ReleaseCommand release}, {@link JitterCommand jitter}, {@link
 * PinCommand pin}, {@link ThreadsCommand threads}); without one it is a usage error.
 *
 * <p>Thread safety: one instance per run.
 */
@Command(
    name = "affinity-kit",
    mixinStandardHelpOptions = true,
    versionProvider = KitVersion.class,
    description = "CPU pinning that tells the truth.",
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
      "0:the report was printed (warnings included); isolated and released; pinned",
      "1:the host could not be read; isolation refused or not all put back; the JVM runs the"
          + " agent already",
      "2:a bad option or rule, a rejected pool override (-Daffinitykit.pool, AFFINITYKIT_POOL),"
          + " a JVM that cannot be attached to"
    })
final class KitCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Override
  public Integer call() {
    throw CommandLines.badValue(
        spec, "command", "none", String.join(", ", spec.subcommands().keySet()));
  }
}
