package io.github.affinitykit.hostreport;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.Optional;

/**
 * Reads this JVM's {@code -XX} options through {@link HotSpotDiagnosticMXBean#getVMOption}: the
 * value the VM runs with, never a guess from the command line. Read on demand, never in a static
 * initialiser: {@link HostReport} takes the reader as a function so tests can give any answer.
 *
 * <p>Thread safety: stateless.
 */
final class VmOptions {
  private VmOptions() {}

  /**
   * Returns the option's value as the VM prints it ({@code "true"}, {@code "false"}, a number).
   *
   * @param name the option's name without {@code -XX:} ({@code UseNUMA})
   * @return its value, or empty where the VM has no such option or no HotSpot diagnostic bean
   */
  static Optional<String> live(String name) {
    try {
      HotSpotDiagnosticMXBean bean =
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      return bean == null ? Optional.empty() : Optional.of(bean.getVMOption(name).getValue());
    } catch (IllegalArgumentException | SecurityException | LinkageError e) {
      return Optional.empty(); // not HotSpot, or no such option
    }
  }

  /**
   * Returns a boolean option's value.
   *
   * @param value what {@link #live} or a test's stand-in gave
   * @return true or false for {@code "true"} or {@code "false"}, else empty
   */
  static Optional<Boolean> flag(Optional<String> value) {
    return value.filter(v -> v.equals("true") || v.equals("false")).map(Boolean::valueOf);
  }
}
