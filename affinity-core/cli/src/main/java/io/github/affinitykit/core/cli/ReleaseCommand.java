package io.github.affinitykit.core.cli;

import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.isolation.Change;
import io.github.affinitykit.isolation.IsolationReport;
import io.github.affinitykit.isolation.IsolationStatus;
import io.github.affinitykit.isolation.Isolator;
import java.io.PrintWriter;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code affinity-kit release}: undoes every isolation whose owner is dead (killed, crashed), from
 * its journal; one whose owner still runs is left to it.
 *
 * <p>Exit status: 0 when everything found was put back (or nothing was found), 1 when an owner
 * still runs or something could not be put back, 2 for a bad option.
 *
 * <p>Thread safety: one instance per run.
 */
@Command(
    name = "release",
    mixinStandardHelpOptions = true,
    versionProvider = KitVersion.class,
    sortOptions = false,
    description = {
      "Undo isolations left by dead processes: every task mask, IRQ affinity, cgroup and kernel"
          + " file back as it was, from the journal.",
      "An isolation whose owner still runs is left to it (it undoes it when it closes or exits)."
    })
final class ReleaseCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Mixin private IsolationOptions options = new IsolationOptions();

  private final Supplier<AffinityBackend> backends;

  ReleaseCommand(Supplier<AffinityBackend> backends) {
    this.backends = Objects.requireNonNull(backends, "backends");
  }

  @Override
  public Integer call() {
    List<IsolationReport> reports =
        Isolator.live(backends.get()).directory(options.journalDir()).release();
    PrintWriter out = spec.commandLine().getOut();
    if (options.json()) {
      out.print(IsolationJson.render(reports));
    } else if (reports.isEmpty()) {
      out.println("no isolation to release in " + options.journalDir());
    } else {
      reports.forEach(r -> out.print(r.text()));
    }
    out.flush();
    boolean clean =
        reports.stream()
            .allMatch(
                r ->
                    r.status() == IsolationStatus.RELEASED
                        && r.changes().stream()
                            .noneMatch(c -> c.outcome() == Change.Outcome.FAILED));
    return clean ? 0 : 1;
  }
}
