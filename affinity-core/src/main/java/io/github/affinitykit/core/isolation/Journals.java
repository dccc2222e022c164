package io.github.affinitykit.core.isolation;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.internal.SysFs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The journals in a directory: found, judged by their owner's liveness, and undone when the owner
 * is dead (a journal of an earlier boot is only deleted: a reboot undid everything).
 *
 * <p>Thread safety: stateless; callers serialise on the directory through the CPU reservations.
 */
final class Journals {
  private Journals() {}

  /** Every journal in {@code dir} and its owner's state. */
  static List<IsolationJournal> find(Path dir, SysFs fs) {
    List<IsolationJournal> out = new ArrayList<>();
    List<Path> files;
    try {
      files = Journal.list(dir);
    } catch (IOException e) {
      return out;
    }
    for (Path f : files) {
      try {
        Journal j = Journal.read(f);
        out.add(
            new IsolationJournal(
                f.toString(),
                j.owner().pid(),
                j.owner().liveness(fs),
                j.cpus(),
                j.mechanism(),
                ""));
      } catch (IOException | IllegalArgumentException e) {
        out.add(
            new IsolationJournal(
                f.toString(), -1, OwnerState.UNKNOWN, CpuSet.empty(), Mechanism.NONE, Step.why(e)));
      }
    }
    return out;
  }

  /**
   * Undoes the isolations whose owner is dead and deletes their journals (kept if something could
   * not be put back, for another try); journals of an earlier boot are deleted.
   *
   * @param kernel the kernel to undo on, given the journal's housekeeping CPUs
   */
  static List<IsolationReport> recover(Path dir, SysFs fs, Function<CpuSet, Kernel> kernel) {
    List<IsolationReport> out = new ArrayList<>();
    for (IsolationJournal found : find(dir, fs)) {
      if (found.owner() != OwnerState.DEAD && found.owner() != OwnerState.EARLIER_BOOT) {
        continue;
      }
      Path file = Path.of(found.journal());
      try {
        Journal j = Journal.read(file);
        List<Change> undone =
            found.owner() == OwnerState.DEAD
                ? Applier.undo(kernel.apply(j.housekeeping()), j.steps())
                : List.of();
        boolean clean = Applier.clean(undone);
        if (clean) {
          Files.deleteIfExists(file);
        }
        out.add(released(j, found, undone, clean));
      } catch (IOException | IllegalArgumentException e) {
        continue; // unreadable: find() reports it, and it is left for a person to look at
      }
    }
    return out;
  }

  private static IsolationReport released(
      Journal j, IsolationJournal found, List<Change> undone, boolean clean) {
    String what = found.describe().replaceAll(": run release to undo it.*", "");
    String outcome =
        found.owner() == OwnerState.EARLIER_BOOT
            ? "journal deleted"
            : clean ? "undone" : "partly undone; journal kept at " + found.journal();
    return new IsolationReport(
        IsolationStatus.RELEASED,
        j.cpus(),
        j.housekeeping(),
        j.mechanism(),
        List.of(),
        "",
        j.owner().pid(),
        clean ? "" : found.journal(),
        undone,
        List.of(),
        "",
        List.of(what + ": " + outcome));
  }
}
