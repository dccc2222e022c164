package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.SysFs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The journals in a directory: found, judged by their owner's liveness, and undone when the owner
 * is dead (a journal of an earlier boot is only deleted: a reboot undid everything). A journal is
 * read only from a {@link Trusted} directory, only if trusted itself, and only if every path it
 * names is one {@link Writable} allows; any other is listed {@link OwnerState#UNKNOWN} with the
 * rule it breaks and never replayed. The owner is alive while it holds the lock on its owner file
 * ({@link LockedFile#held}), dead once nobody does (the kernel drops it on death) or the file is
 * gone.
 *
 * <p>Thread safety: stateless; {@link #recover} runs under the directory's {@code isolation.lock}
 * (see {@link Isolator}), {@link #find} needs no lock.
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
    Optional<String> untrusted = Trusted.directory(dir);
    Writable writable = Writable.of(fs);
    for (Path f : files) {
      if (untrusted.isPresent()) {
        out.add(unknown(f, "refused, never read: " + untrusted.get()));
        continue;
      }
      Journal j;
      try {
        j = Journal.read(f, writable);
      } catch (IOException | IllegalArgumentException e) {
        out.add(unknown(f, "refused, never replayed: " + Step.why(e)));
        continue;
      }
      try {
        out.add(
            new IsolationJournal(
                f.toString(), j.owner().pid(), liveness(f, j, fs), j.cpus(), j.mechanism(), ""));
      } catch (IOException e) {
        out.add(
            new IsolationJournal(
                f.toString(),
                j.owner().pid(),
                OwnerState.UNKNOWN,
                j.cpus(),
                j.mechanism(),
                "owner unknown: " + Step.why(e)));
      }
    }
    return out;
  }

  private static IsolationJournal unknown(Path f, String problem) {
    return new IsolationJournal(
        f.toString(), -1, OwnerState.UNKNOWN, CpuSet.empty(), Mechanism.NONE, problem);
  }

  /** Of an earlier boot; else alive while its owner file is locked. */
  private static OwnerState liveness(Path file, Journal j, SysFs fs) throws IOException {
    if (j.owner().earlierBoot(fs)) {
      return OwnerState.EARLIER_BOOT;
    }
    return LockedFile.held(Journal.ownerFile(file)) ? OwnerState.ALIVE : OwnerState.DEAD;
  }

  /**
   * Undoes the isolations whose owner is dead and deletes their journals (kept if something could
   * not be put back, for another try); journals of an earlier boot are deleted. Call it holding the
   * directory's lock.
   *
   * @param kernel the kernel to undo on, given the journal's housekeeping CPUs
   */
  static List<IsolationReport> recover(Path dir, SysFs fs, Function<CpuSet, Kernel> kernel) {
    List<IsolationReport> out = new ArrayList<>();
    Writable writable = Writable.of(fs);
    for (IsolationJournal found : find(dir, fs)) {
      if (found.owner() != OwnerState.DEAD && found.owner() != OwnerState.EARLIER_BOOT) {
        continue;
      }
      Path file = Path.of(found.journal());
      try {
        Journal j = Journal.read(file, writable);
        List<Change> undone =
            found.owner() == OwnerState.DEAD
                ? Applier.undo(kernel.apply(j.housekeeping()), j.steps())
                : List.of();
        boolean clean = Applier.clean(undone);
        if (clean) {
          Files.deleteIfExists(file);
          Files.deleteIfExists(Journal.ownerFile(file));
        }
        out.add(released(j, found, undone, clean));
      } catch (IOException | IllegalArgumentException e) {
        continue; // changed since find(): find() reports it, and it is left for a person
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
