package io.github.affinitykit.audit;

import io.github.affinitykit.core.internal.ProcNumbers;
import io.github.affinitykit.core.internal.SysFs;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Pressure stall information (PSI, Linux 4.20+) for one resource: the share of time some task
 * ({@code some}) or every non-idle task ({@code full}) waited for it. Read from {@code
 * /proc/pressure/<resource>} (the whole machine) or parsed from a cgroup v2 {@code <resource>
 * .pressure} file, which has the same format. A benchmark records it beside its results so that a
 * contended run shows.
 *
 * <p>Thread safety: immutable; {@link #read(Path, Resource)} may be called from any thread.
 *
 * @param some the time at least one task waited
 * @param full the time all non-idle tasks waited; empty where the kernel prints no {@code full}
 *     line (CPU before 5.13)
 */
public record Pressure(Stall some, Optional<Stall> full) {

  /**
   * Validates.
   *
   * @param some the time at least one task waited; not null
   * @param full the time all non-idle tasks waited, empty where the kernel prints no {@code full}
   *     line; not null
   */
  public Pressure {
    Objects.requireNonNull(some, "some");
    Objects.requireNonNull(full, "full");
  }

  /** The resources the kernel reports pressure for. */
  public enum Resource {
    /** Runnable tasks waiting for a CPU. */
    CPU,
    /** Tasks waiting for memory (reclaim, swap-in, thrashing). */
    MEMORY,
    /** Tasks waiting for block I/O. */
    IO;

    String fileName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * One line of a PSI file.
   *
   * <p>Thread safety: immutable.
   *
   * @param avg10 percent of the last 10 s spent stalled
   * @param avg60 percent of the last 60 s spent stalled
   * @param avg300 percent of the last 300 s spent stalled
   * @param totalUs total stall time since boot, µs
   */
  public record Stall(double avg10, double avg60, double avg300, long totalUs) {}

  /**
   * Reads this machine's {@code /proc/pressure/cpu}; empty where PSI is absent or garbled.
   *
   * @return the whole machine's CPU pressure now, or empty
   */
  public static Optional<Pressure> cpu() {
    return read(Path.of("/"), Resource.CPU);
  }

  /**
   * Reads {@code root/proc/pressure/<resource>}; empty where it is absent or garbled.
   *
   * @param root the directory holding the {@code proc/} tree, {@code /} for this machine; not null
   * @param resource which file to read; not null
   * @return the pressure now, or empty
   */
  public static Optional<Pressure> read(Path root, Resource resource) {
    Objects.requireNonNull(resource, "resource");
    SysFs fs = new SysFs(Objects.requireNonNull(root, "root"));
    return fs.read("/proc/pressure/" + resource.fileName()).flatMap(Pressure::parse);
  }

  /**
   * Parses the text of a PSI file: a {@code some} line and an optional {@code full} line, each
   * {@code avg10=<d.dd> avg60=<d.dd> avg300=<d.dd> total=<µs>}; empty if the {@code some} line is
   * missing or either line is garbled.
   *
   * @param text the whole text of a PSI file; not null
   * @return the pressure, {@code full} empty if the text has no {@code full} line; or empty
   */
  public static Optional<Pressure> parse(String text) {
    Optional<Stall> some = Optional.empty();
    Optional<Stall> full = Optional.empty();
    for (String line : text.split("\n")) {
      if (line.startsWith("some ")) {
        some = stall(line.substring(5));
        if (some.isEmpty()) {
          return Optional.empty();
        }
      } else if (line.startsWith("full ")) {
        full = stall(line.substring(5));
        if (full.isEmpty()) {
          return Optional.empty();
        }
      }
    }
    return some.isEmpty() ? Optional.empty() : Optional.of(new Pressure(some.get(), full));
  }

  private static Optional<Stall> stall(String fields) {
    String[] f = fields.trim().split(" +");
    if (f.length != 4) {
      return Optional.empty();
    }
    double avg10 = fixedPoint(value(f[0], "avg10="));
    double avg60 = fixedPoint(value(f[1], "avg60="));
    double avg300 = fixedPoint(value(f[2], "avg300="));
    long total = ProcNumbers.counter(value(f[3], "total="));
    if (avg10 < 0 || avg60 < 0 || avg300 < 0 || total < 0) {
      return Optional.empty();
    }
    return Optional.of(new Stall(avg10, avg60, avg300, total));
  }

  /** The decimal {@code digits[.digits]} {@code s}, or -1 if it is not one. */
  private static double fixedPoint(String s) {
    int dot = s.indexOf('.');
    String whole = dot < 0 ? s : s.substring(0, dot);
    String fraction = dot < 0 ? "0" : s.substring(dot + 1);
    if (ProcNumbers.counter(whole) < 0 || ProcNumbers.counter(fraction) < 0) {
      return -1;
    }
    return Double.parseDouble(s);
  }

  /** The text after {@code key}, or "" (not a number) when the field is another key. */
  private static String value(String field, String key) {
    return field.startsWith(key) ? field.substring(key.length()) : "";
  }
}
