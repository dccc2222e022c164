package io.github.affinitykit.latency;

import io.github.affinitykit.core.cpu.CpuSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntSupplier;

/**
 * Latency matrices kept per host, one file per {@link HostKey} ({@code latency-<id>.matrix}), so a
 * host measures once and measures again when its topology, kernel or CPU model changes. The
 * directory is one only this process's user can write: made {@code 0700} when missing, and refused
 * (an {@link IllegalStateException} naming the path and the rule) when it or a file in it is a
 * symbolic link, owned by another user, or writable by group or others; links are never followed,
 * and each file is written whole to a temporary file and renamed into place.
 *
 * <p>The default directory is the system property {@code affinitykit.latency.cache}, else {@code
 * $XDG_CACHE_HOME/affinity-kit}, else {@code ~/.cache/affinity-kit}.
 *
 * <p>Thread safety: safe for concurrent use; two processes measuring at once each write a whole
 * file, and the last rename wins.
 */
public final class LatencyCache {
  /** The system property that names the directory. */
  public static final String DIRECTORY_PROPERTY = "affinitykit.latency.cache";

  private static final int MAX_FILE_BYTES = 32 * 1024 * 1024;

  private final PrivateDirectory directory;

  LatencyCache(Path directory, IntSupplier uid) {
    this.directory = new PrivateDirectory(directory, uid);
  }

  /**
   * Returns the cache in a directory of its own.
   *
   * @param directory where the matrices are kept; made {@code 0700} on first use if missing
   * @return the cache; nothing is read or made before its first use
   */
  public static LatencyCache inDirectory(Path directory) {
    return new LatencyCache(
        Objects.requireNonNull(directory, "directory"), LatencyCache::processUid);
  }

  /**
   * Returns the cache in the default directory (see above), read from the environment now.
   *
   * @return the cache
   */
  public static LatencyCache inDefaultDirectory() {
    String property = System.getProperty(DIRECTORY_PROPERTY, "");
    if (!property.isBlank()) {
      return inDirectory(Path.of(property));
    }
    String xdg = Objects.requireNonNullElse(System.getenv("XDG_CACHE_HOME"), "");
    Path base =
        !xdg.isBlank() && Path.of(xdg).isAbsolute()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".cache");
    return inDirectory(base.resolve("affinity-kit"));
  }

  /** {@return the directory of the matrices} */
  public Path directory() {
    return directory.path();
  }

  /**
   * Returns the file that holds a key's matrix.
   *
   * @param key the host's key
   * @return {@code latency-<id>.matrix} in {@link #directory()}, whether it exists or not
   */
  public Path file(HostKey key) {
    return directory.path().resolve(name(key));
  }

  /**
   * Returns the cached matrix of a key, restricted to {@code cpus}.
   *
   * @param key the host's key
   * @param cpus the CPUs wanted, at least one
   * @return the matrix; empty if none is cached for {@code key}, it lacks one of {@code cpus}, or
   *     its file does not parse
   * @throws IllegalStateException if the directory or the file fails a check (see above)
   * @throws UncheckedIOException if the directory cannot be made or the file read
   */
  public Optional<LatencyMatrix> load(HostKey key, CpuSet cpus) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(cpus, "cpus");
    directory.ensure();
    return directory
        .read(name(key), MAX_FILE_BYTES)
        .flatMap(text -> MatrixFile.parse(text, key))
        .filter(m -> !cpus.isEmpty() && m.cpus().containsAll(cpus))
        .map(m -> m.restrict(cpus));
  }

  /**
   * Writes a key's matrix, replacing the one there.
   *
   * @param key the host's key
   * @param matrix its matrix
   * @return the file written
   * @throws IllegalStateException if the directory fails a check (see above)
   * @throws UncheckedIOException if the file cannot be written
   */
  public Path store(HostKey key, LatencyMatrix matrix) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(matrix, "matrix");
    directory.ensure();
    return directory.write(name(key), MatrixFile.format(key, matrix));
  }

  /**
   * Returns the key's cached matrix of {@code cpus}, or measures and caches it if none is.
   *
   * @param key the host's key, as {@code HostKey.of(kit.host())}
   * @param cpus the CPUs wanted, as the pool's
   * @param meter measures them when needed (see its cost)
   * @return the matrix and where it came from
   * @throws IllegalStateException if the directory or the file fails a check, or measuring fails
   * @throws InterruptedException if interrupted while measuring
   */
  public LatencyLookup matrix(HostKey key, CpuSet cpus, LatencyMeter meter)
      throws InterruptedException {
    Objects.requireNonNull(meter, "meter");
    return lookup(key, cpus, meter::measure, false);
  }

  /**
   * Measures {@code cpus} again and replaces the key's cached matrix.
   *
   * @param key the host's key
   * @param cpus the CPUs to measure
   * @param meter measures them (see its cost)
   * @return the new matrix, {@link LatencyLookup.Origin#REFRESHED}
   * @throws IllegalStateException if the directory fails a check, or measuring fails
   * @throws InterruptedException if interrupted while measuring
   */
  public LatencyLookup refresh(HostKey key, CpuSet cpus, LatencyMeter meter)
      throws InterruptedException {
    Objects.requireNonNull(meter, "meter");
    return lookup(key, cpus, meter::measure, true);
  }

  /** Measures a set of CPUs: a {@link LatencyMeter}, or a test's stand-in. */
  @FunctionalInterface
  interface Measure {
    LatencyMatrix of(CpuSet cpus) throws InterruptedException;
  }

  LatencyLookup lookup(HostKey key, CpuSet cpus, Measure measure, boolean refresh)
      throws InterruptedException {
    Objects.requireNonNull(cpus, "cpus");
    if (cpus.isEmpty()) {
      throw new IllegalArgumentException("cpus: empty (expected: at least one CPU)");
    }
    Path file = file(key);
    if (!refresh) {
      Optional<LatencyMatrix> cached = load(key, cpus);
      if (cached.isPresent()) {
        return new LatencyLookup(
            cached.get(), file, LatencyLookup.Origin.CACHED, "read from " + file);
      }
    }
    String why =
        refresh
            ? "a refresh was asked"
            : "no matrix of CPUs "
                + cpus
                + " was cached for key "
                + key.id()
                + " in "
                + directory();
    LatencyMatrix measured = measure.of(cpus);
    store(key, measured);
    return new LatencyLookup(
        measured,
        file,
        refresh ? LatencyLookup.Origin.REFRESHED : LatencyLookup.Origin.MEASURED,
        "measured: " + why);
  }

  private static String name(HostKey key) {
    return "latency-" + key.id() + ".matrix";
  }

  /** This process's effective user id, from {@code /proc/self/status}. */
  static int processUid() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
        if (line.startsWith("Uid:")) {
          return Integer.parseInt(line.substring(4).trim().split("\\s+")[1]);
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException(
          "uid: unknown (expected: /proc/self/status to name this process's user)", e);
    }
    throw new IllegalStateException("uid: unknown (expected: a Uid line in /proc/self/status)");
  }

  @Override
  public String toString() {
    return "LatencyCache[" + directory() + "]";
  }
}
