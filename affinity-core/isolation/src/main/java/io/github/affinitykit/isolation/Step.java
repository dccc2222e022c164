package io.github.affinitykit.isolation;

import java.util.List;

/**
 * One change of an isolation, as journaled: applying it returns what happened, undoing it puts the
 * value from before back when it is still the isolation's doing. Neither throws: the kernel's
 * refusals become {@link Change.Outcome#FAILED} with its error.
 *
 * <p>Thread safety: implementations are immutable.
 */
sealed interface Step permits DirStep, WriteStep, JoinStep, MaskStep {
  /** The change as planned. */
  Change planned();

  /**
   * Whether a failure to apply this step undoes the whole isolation (a cgroup that cannot be made
   * leaves nothing isolated); other failures are reported and the rest goes on.
   */
  boolean essential();

  /** Applies the step. */
  Change apply(Kernel kernel);

  /** Undoes the step if it is still in force; idempotent, also for a step never applied. */
  Change undo(Kernel kernel);

  /**
   * Every path applying or undoing the step writes, creates or removes (and the files it reads to
   * undo), as journaled: each must pass {@link Writable#refusal(String)} before a journal is
   * trusted.
   */
  List<String> paths();

  /** The journal line: a keyword, then escaped fields separated by single spaces. */
  String journal();

  /**
   * Parses a journal line written by {@link #journal()}.
   *
   * @throws IllegalArgumentException if the line is not a step
   */
  static Step parse(String line) {
    String[] f = line.split(" ", -1);
    List<String> fields = List.of(f).subList(1, f.length);
    switch (f[0]) {
      case "mkdir":
        return DirStep.parse(fields);
      case "write":
        return WriteStep.parse(fields);
      case "join":
        return JoinStep.parse(fields);
      case "task":
        return MaskStep.parse(fields);
      default:
        throw new IllegalArgumentException(
            "journal line: " + line + " (expected: mkdir, write, join or task)");
    }
  }

  /** Checks a parsed line's field count. */
  static void expect(String keyword, List<String> fields, int count) {
    if (fields.size() != count) {
      throw new IllegalArgumentException(
          "journal "
              + keyword
              + ": "
              + String.join(" ", fields)
              + " (expected: "
              + count
              + " fields)");
    }
  }

  /** A kernel error for a report: its message without the exception class. */
  static String why(Exception e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.toString() : m;
  }
}
