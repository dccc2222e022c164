package io.github.affinitykit.core.reservation;

import io.github.affinitykit.core.internal.text.Printable;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Where lock files live unless a caller names a directory: the system property {@value #PROPERTY},
 * else the environment variable {@value #ENV}, else {@code java.io.tmpdir} (OpenHFT's directory, so
 * that both libraries exclude each other). A blank value counts as unset; any other value must be
 * an absolute path.
 *
 * <p>Thread safety: stateless; the property and the variable are read at each call.
 */
final class LockDirectory {
  /** The system property naming the lock directory. */
  static final String PROPERTY = "affinitykit.lock.dir";

  /** The environment variable naming the lock directory (the property wins). */
  static final String ENV = "AFFINITYKIT_LOCK_DIR";

  private LockDirectory() {}

  /**
   * The configured directory of this JVM.
   *
   * @throws IllegalArgumentException if the property or variable is not an absolute path
   */
  static Path configured() {
    return resolve(System.getProperty(PROPERTY), System.getenv(ENV), tempDirectory());
  }

  /** {@code java.io.tmpdir}, OpenHFT's lock directory. */
  static Path tempDirectory() {
    return Path.of(System.getProperty("java.io.tmpdir"));
  }

  /**
   * The directory {@code property}, else {@code env}, else {@code fallback} (each null when unset).
   *
   * @throws IllegalArgumentException naming the origin, value and rule if the one used is not an
   *     absolute path
   */
  static Path resolve(String property, String env, Path fallback) {
    if (property != null && !property.isBlank()) {
      return absolute("-D" + PROPERTY, property);
    }
    if (env != null && !env.isBlank()) {
      return absolute(ENV, env);
    }
    return fallback;
  }

  private static Path absolute(String origin, String value) {
    Path path = null;
    try {
      path = Path.of(value);
    } catch (InvalidPathException e) {
      // said below
    }
    if (path == null || !path.isAbsolute()) {
      throw new IllegalArgumentException(
          origin + ": " + Printable.of(value) + " (expected: an absolute path of a directory)");
    }
    return path;
  }
}
