package io.github.affinitykit.core.internal.natives;

/**
 * The one table of Linux {@code errno} values this library names (the generic numbering, which
 * every supported ABI shares for these), with their texts ({@link #describe(int)}).
 *
 * <p>Thread safety: stateless.
 */
public final class Errno {
  public static final int EPERM = 1;
  public static final int ENOENT = 2;
  public static final int ESRCH = 3;
  public static final int EAGAIN = 11;
  public static final int ENOMEM = 12;
  public static final int EACCES = 13;
  public static final int EFAULT = 14;
  public static final int EEXIST = 17;
  public static final int ENODEV = 19;
  public static final int EINVAL = 22;
  public static final int ENOSYS = 38;

  private static final String[][] KNOWN = {
    {"1", "EPERM", "Operation not permitted"},
    {"2", "ENOENT", "No such file or directory"},
    {"3", "ESRCH", "No such process"},
    {"4", "EINTR", "Interrupted system call"},
    {"11", "EAGAIN", "Resource temporarily unavailable"},
    {"12", "ENOMEM", "Cannot allocate memory"},
    {"13", "EACCES", "Permission denied"},
    {"14", "EFAULT", "Bad address"},
    {"17", "EEXIST", "File exists"},
    {"19", "ENODEV", "No such device"},
    {"20", "ENOTDIR", "Not a directory"},
    {"21", "EISDIR", "Is a directory"},
    {"22", "EINVAL", "Invalid argument"},
    {"28", "ENOSPC", "No space left on device"},
    {"30", "EROFS", "Read-only file system"},
    {"38", "ENOSYS", "Function not implemented"},
    {"40", "ELOOP", "Too many levels of symbolic links"},
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
