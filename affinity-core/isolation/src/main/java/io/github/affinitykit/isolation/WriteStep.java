package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Writes a kernel or cgroup file: an IRQ's {@code smp_affinity}, {@code default_smp_affinity}, the
 * workqueue cpumask, a cgroup's {@code cpuset.*} or {@code cgroup.subtree_control}. Undoing writes
 * the text from before back ({@link Undo#RESTORE}), or a text that reverses an edit ({@link
 * Undo#TEXT}: {@code -cpuset} for {@code +cpuset}), or nothing for a file of a cgroup the isolation
 * made and removes ({@link Undo#NONE}); a restored file must then read exactly as before. A file is
 * put back only while it still holds what the isolation wrote: one changed by someone else
 * meanwhile is {@link Change.Outcome#LEFT} and reported, as task masks are.
 *
 * <p>Thread safety: immutable.
 *
 * @param kind {@link Change.Kind#IRQ}, {@link Change.Kind#FILE} or {@link Change.Kind#CGROUP}
 * @param undo how to undo
 * @param path the file
 * @param before its exact text before
 * @param text what applying writes
 * @param undoText what undoing writes, for {@link Undo#TEXT}
 */
record WriteStep(
    Change.Kind kind, Undo undo, String path, String before, String text, String undoText)
    implements Step {

  /** How a write is undone. */
  enum Undo {
    RESTORE,
    TEXT,
    NONE
  }

  WriteStep {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(undo, "undo");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(before, "before");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(undoText, "undoText");
  }

  /** A write undone by writing {@code before} back. */
  static WriteStep restoring(Change.Kind kind, String path, String before, String text) {
    return new WriteStep(kind, Undo.RESTORE, path, before, text, "");
  }

  /** A write to a file of a cgroup the isolation makes: removed with it, nothing to undo. */
  static WriteStep created(String path, String text) {
    return new WriteStep(Change.Kind.CGROUP, Undo.NONE, path, "", text, "");
  }

  @Override
  public Change planned() {
    return new Change(kind, irq(), path, before, text, Change.Outcome.PLANNED, "");
  }

  private int irq() {
    String[] p = path.split("/");
    return kind == Change.Kind.IRQ && p.length > 3 ? Integer.parseInt(p[3]) : -1;
  }

  @Override
  public boolean essential() {
    return kind == Change.Kind.CGROUP;
  }

  @Override
  public Change apply(Kernel kernel) {
    try {
      kernel.files().write(path, text);
      return planned().with(Change.Outcome.DONE, "");
    } catch (IOException e) {
      return planned().with(Change.Outcome.FAILED, Step.why(e));
    }
  }

  @Override
  public Change undo(Kernel kernel) {
    if (undo == Undo.NONE) {
      return planned().with(Change.Outcome.GONE, "removed with its cgroup");
    }
    Optional<String> now = kernel.files().raw(path);
    if (now.isEmpty()) {
      return planned().with(Change.Outcome.GONE, "no longer there");
    }
    if (now.get().equals(before)) {
      return planned().with(Change.Outcome.UNCHANGED, "");
    }
    if (!holdsWritten(now.get())) {
      return planned()
          .with(
              Change.Outcome.LEFT,
              "now \"" + now.get().strip() + "\": changed by someone else while isolated");
    }
    String back = undo == Undo.TEXT ? undoText : before.isEmpty() ? "\n" : before;
    try {
      kernel.files().write(path, back);
    } catch (IOException e) {
      return planned().with(Change.Outcome.FAILED, Step.why(e));
    }
    String read = kernel.files().raw(path).orElse("");
    return read.equals(before)
        ? planned().with(Change.Outcome.RESTORED, "")
        : planned()
            .with(
                Change.Outcome.FAILED,
                "reads \"" + read.strip() + "\", not \"" + before.strip() + "\"");
  }

  /**
   * Whether the file still holds what applying wrote (a mask or CPU list compared as CPUs, {@code
   * +cpuset} as a token, a partition's state by its first word): only then is it put back.
   */
  private boolean holdsWritten(String now) {
    if (undo == Undo.TEXT) {
      return text.startsWith("+")
          ? List.of(now.strip().split("\\s+")).contains(text.substring(1))
          : now.strip().startsWith(text.strip());
    }
    try {
      return kind == Change.Kind.CGROUP
          ? CpuSet.parse(now.strip()).equals(CpuSet.parse(text.strip()))
          : CpuSet.parseMask(now.strip()).equals(CpuSet.parseMask(text.strip()));
    } catch (IllegalArgumentException e) {
      return now.strip().equals(text.strip());
    }
  }

  @Override
  public List<String> paths() {
    return List.of(path);
  }

  @Override
  public String journal() {
    return String.join(
        " ",
        "write",
        kind.name(),
        undo.name(),
        Escape.encode(path),
        Escape.encode(before),
        Escape.encode(text),
        Escape.encode(undoText));
  }

  static WriteStep parse(List<String> f) {
    Step.expect("write", f, 6);
    return new WriteStep(
        Change.Kind.valueOf(f.get(0)),
        Undo.valueOf(f.get(1)),
        Escape.decode(f.get(2)),
        Escape.decode(f.get(3)),
        Escape.decode(f.get(4)),
        Escape.decode(f.get(5)));
  }
}
