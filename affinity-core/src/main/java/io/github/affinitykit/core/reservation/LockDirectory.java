package io.github.affinitykit.core.reservation;

import io.github.affinitykit.core.internal.text.Printable;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Where lock files live unless a caller names a directory: {@value #PROPERTY}, else {@value #ENV},
 * else {@code java.io.tmpdir} (OpenHFT's). Blank counts as unset; else it must be absolute.
 *
 * <p>Thread safety: stateless; the property and the variable are read at each call.
 */
final class LockDirectory {
  /** The system property naming the lock directory. */
  static final String PROPERTY = "affinitykit.lock.dir";

  /** The environment variable naming the lock directory (the property wins). */
  static final String ENV = "AFFINITYKIT_LOCK_DIR";

  private LockDirectory() {}

  /** The configured directory; {@link IllegalArgumentException} if not absolute. */
  static Path configured() {
    return resolve(System.getProperty(PROPERTY), System.getenv(ENV), tempDirectory());
  }

  /** {@code java.io.tmpdir}, OpenHFT's lock directory. */
  static Path tempDirectory() {
    return Path.of(System.getProperty("java.io.tmpdir"));
  }

  /** {@code property}, else {@code env} (null: unset), else {@code fallback}; absolute only. */
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
