package io.github.affinitykit.core;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Cross-process CPU reservations: one lock file per CPU, {@code <directory>/cpu-<N>.lock}, the
 * files and the lock of OpenHFT's {@code AffinityLock}, so that a JVM using plain OpenHFT and a JVM
 * using Affinity Kit never take the same CPU. The default directory is {@code java.io.tmpdir}
 * (OpenHFT's too).
 *
 * <p>A reserved file holds the holder's pid and the time, as OpenHFT writes them ({@code
 * 1234\n2026.01.31 at 12:00:00 UTC}); the lock itself is an exclusive POSIX {@code fcntl} lock of
 * the whole file ({@link FileChannel#tryLock(long, long, boolean)}), dropped by the kernel when the
 * process dies. Files are never deleted.
 *
 * <p>There is one instance per directory in a JVM, and it owns the only channel this library opens
 * on each lock file: POSIX drops a process's lock when <em>any</em> descriptor of the file is
 * closed, so a second reservation of a held CPU fails without opening the file again. Do not also
 * use OpenHFT's {@code AffinityLock} on the same directory in the same JVM: each library's probes
 * can drop the other's locks.
 *
 * <p>Failures are results, not exceptions: an unwritable directory or a lock file owned by another
 * user is {@link ReservationStatus#UNAVAILABLE} with the reason.
 *
 * <p>Thread safety: all methods are safe to call from any thread; they serialise on the instance.
 */
public final class CpuReservations {
  private static final ConcurrentMap<Path, CpuReservations> BY_DIRECTORY =
      new ConcurrentHashMap<>();

  private final Path directory;
  private final Map<Integer, LockFile> files = new HashMap<>(); // guarded by this

  private CpuReservations(Path directory) {
    this.directory = directory;
  }

  /**
   * Returns this JVM's reservations in {@code directory} (created on the first reservation if
   * missing). Paths naming the same directory through symbolic links give the same instance.
   *
   * @param directory where the {@code cpu-<N>.lock} files live
   */
  public static CpuReservations inDirectory(Path directory) {
    Objects.requireNonNull(directory, "directory");
    return BY_DIRECTORY.computeIfAbsent(canonical(directory), CpuReservations::new);
  }

  /** Returns this JVM's reservations in {@code java.io.tmpdir}, where OpenHFT keeps its own. */
  public static CpuReservations inTempDirectory() {
    return inDirectory(Path.of(System.getProperty("java.io.tmpdir")));
  }

  /** Resolves symbolic links of the longest existing prefix of {@code dir}. */
  private static Path canonical(Path dir) {
    Path abs = dir.toAbsolutePath().normalize();
    Path existing = abs;
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    try {
      return existing == null ? abs : existing.toRealPath().resolve(existing.relativize(abs));
    } catch (IOException e) {
      return abs;
    }
  }

  /** Returns the (canonical) directory of the lock files. */
  public Path directory() {
    return directory;
  }

  /** Returns the lock file of {@code cpu}: {@code <directory>/cpu-<cpu>.lock}. */
  public Path lockFile(int cpu) {
    return directory.resolve("cpu-" + checkCpu(cpu) + ".lock");
  }

  /**
   * Tries once to reserve {@code cpu}, without waiting.
   *
   * @return {@link ReservationStatus#RESERVED} with the reservation, or why not: held by this JVM,
   *     held by another process (with its pid), or unavailable (with the I/O error)
   * @throws IllegalArgumentException if {@code cpu} is negative or not below {@link
   *     CpuSet#MAX_CPUS}
   */
  public synchronized ReservationResult tryReserve(int cpu) {
    Path path = lockFile(cpu);
    LockFile file = files.computeIfAbsent(cpu, c -> new LockFile(path));
    long pid = ProcessHandle.current().pid();
    if (file.isLocked()) {
      return ReservationResult.failed(
          cpu,
          ReservationStatus.HELD_BY_THIS_JVM,
          pid,
          "cpu " + cpu + ": already reserved by this JVM (pid " + pid + ") in " + path);
    }
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      return ReservationResult.failed(
          cpu,
          ReservationStatus.UNAVAILABLE,
          -1,
          "cpu " + cpu + ": cannot create directory " + directory + ": " + LockText.describe(e));
    }
    ReservationResult failure = file.tryLock(cpu, LockText.forHolder(pid, ZonedDateTime.now()));
    return failure != null ? failure : ReservationResult.reserved(new Reservation(this, cpu, path));
  }

  /**
   * Reserves the lowest CPU of {@code candidates} that {@link #tryReserve(int)} can reserve.
   *
   * @return the reservation, or {@link ReservationStatus#NONE_FREE} (cpu {@code -1}) whose reason
   *     lists why each candidate failed
   */
  public ReservationResult reserveFirstFree(CpuSet candidates) {
    Objects.requireNonNull(candidates, "candidates");
    return reserveFirstFree(
        java.util.Arrays.stream(candidates.toArray()).boxed().toList(), candidates.toString());
  }

  /**
   * Reserves the first CPU of {@code candidates}, in that order, that no one holds (as {@link
   * #reserveFirstFree(CpuSet)}).
   */
  public ReservationResult reserveFirstFreeInOrder(java.util.List<Integer> candidates) {
    Objects.requireNonNull(candidates, "candidates");
    return reserveFirstFree(candidates, candidates.toString());
  }

  private ReservationResult reserveFirstFree(java.util.List<Integer> candidates, String label) {
    StringJoiner why = new StringJoiner("; ", "no free cpu among [" + label + "]: ", "");
    why.setEmptyValue("no free cpu among []: no candidates");
    for (int cpu : candidates) {
      ReservationResult r = tryReserve(cpu);
      if (r.isReserved()) {
        return r;
      }
      why.add(r.reason());
    }
    return ReservationResult.failed(-1, ReservationStatus.NONE_FREE, -1, why.toString());
  }

  /**
   * Returns the text of {@code cpu}'s lock file for diagnostics: the pid and time of its last
   * holder, who may since have let go ({@link #tryReserve(int)} tells). Reads through the channel
   * this JVM has on the file if any; otherwise opens the file read-only for a moment (which would
   * drop a lock that OpenHFT's {@code AffinityLock} holds on it in this same JVM).
   *
   * @return the text, or empty if the file does not exist or cannot be read
   */
  public synchronized Optional<String> holder(int cpu) {
    LockFile file = files.get(checkCpu(cpu));
    Optional<String> known = file == null ? Optional.empty() : file.knownText();
    if (known.isPresent()) {
      return known; // never open a file this JVM already has open: closing would drop its lock
    }
    try (FileChannel channel = FileChannel.open(lockFile(cpu), StandardOpenOption.READ)) {
      return Optional.of(LockText.read(channel));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      return Optional.empty(); // a directory, or not readable by this user
    }
  }

  /** Returns the CPUs this JVM holds in this directory. */
  public synchronized CpuSet reservedHere() {
    return CpuSet.of(
        files.entrySet().stream()
            .filter(e -> e.getValue().isLocked())
            .mapToInt(Map.Entry::getKey)
            .toArray());
  }

  synchronized void release(int cpu) {
    LockFile file = files.get(cpu);
    if (file != null) {
      file.release();
    }
  }

  private static int checkCpu(int cpu) {
    if (cpu < 0 || cpu >= CpuSet.MAX_CPUS) {
      throw new IllegalArgumentException(
          "cpu: " + cpu + " (expected: >= 0 and < " + CpuSet.MAX_CPUS + ")");
    }
    return cpu;
  }

  @Override
  public String toString() {
    return "CpuReservations[" + directory + ", held " + reservedHere() + "]";
  }
}
