package io.github.affinitykit.audit;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.List;
import java.util.Objects;

/**
 * What {@link JvmThreads#confine} did to each thread of this JVM.
 *
 * <p>Thread safety: immutable.
 *
 * @param housekeeping where the threads were sent
 * @param moved threads whose mask was changed to {@code housekeeping}
 * @param already threads already confined to {@code housekeeping}
 * @param kept threads left alone because they are pinned (by this library or named by the caller)
 * @param failed threads that could not be moved, with the kernel's reason
 */
public record ConfineReport(
    CpuSet housekeeping,
    List<Entry> moved,
    List<Entry> already,
    List<Entry> kept,
    List<Entry> failed) {

  /**
   * One thread.
   *
   * @param tid the kernel thread id
   * @param name the kernel's thread name (15 characters at most)
   * @param before its mask before ({@code CpuSet.empty()} if unknown)
   * @param detail what happened
   */
  public record Entry(int tid, String name, CpuSet before, String detail) {
    /**
     * Validates.
     *
     * @param tid the kernel thread id
     * @param name the kernel's thread name; not null
     * @param before its mask before, empty if unknown; not null
     * @param detail what happened: {@code "moved"}, {@code "already there"}, {@code "pinned"}, or
     *     why it failed; not null
     */
    public Entry {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(before, "before");
      Objects.requireNonNull(detail, "detail");
    }
  }

  /**
   * Copies.
   *
   * @param housekeeping where the threads were sent; not null
   * @param moved threads whose mask was changed to {@code housekeeping}; copied
   * @param already threads already confined to {@code housekeeping}; copied
   * @param kept threads left alone because they are pinned; copied
   * @param failed threads that could not be moved, with the kernel's reason; copied
   */
  public ConfineReport {
    Objects.requireNonNull(housekeeping, "housekeeping");
    moved = List.copyOf(moved);
    already = List.copyOf(already);
    kept = List.copyOf(kept);
    failed = List.copyOf(failed);
  }

  /**
   * Returns one line: counts of each outcome.
   *
   * @return e.g. {@code "confined to 0-1: moved 12, already there 3, kept pinned 2, failed 0"}
   */
  public String summary() {
    return "confined to "
        + housekeeping
        + ": moved "
        + moved.size()
        + ", already there "
        + already.size()
        + ", kept pinned "
        + kept.size()
        + ", failed "
        + failed.size();
  }
}
