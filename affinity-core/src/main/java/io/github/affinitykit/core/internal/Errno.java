package io.github.affinitykit.core.internal;

/**
 * Names and texts of the Linux {@code errno} values the affinity calls return (generic numbering,
 * as on x86 and arm).
 *
 * <p>Thread safety: stateless.
 */
public final class Errno {
  public static final int EPERM = 1;
  public static final int ESRCH = 3;
  public static final int EINVAL = 22;

  private static final String[][] KNOWN = {
    {"1", "EPERM", "Operation not permitted"},
    {"3", "ESRCH", "No such process"},
    {"4", "EINTR", "Interrupted system call"},
    {"12", "ENOMEM", "Cannot allocate memory"},
    {"13", "EACCES", "Permission denied"},
    {"14", "EFAULT", "Bad address"},
    {"22", "EINVAL", "Invalid argument"},
    {"38", "ENOSYS", "Function not implemented"},
  };

  private Errno() {}

  /** Returns {@code EINVAL (22) Invalid argument}, or {@code errno 99 (unknown)}. */
  public static String describe(int errno) {
    String[] row = find(errno);
    return row == null ? "errno " + errno + " (unknown)" : row[1] + " (" + errno + ") " + row[2];
  }

  /** Returns {@code EINVAL}, or {@code errno 99}. */
  public static String name(int errno) {
    String[] row = find(errno);
    return row == null ? "errno " + errno : row[1];
  }

  private static String[] find(int errno) {
    for (String[] row : KNOWN) {
      if (Integer.parseInt(row[0]) == errno) {
        return row;
      }
    }
    return null;
  }
}
