package io.github.affinitykit.core.reservation;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.natives.FileCalls;
import io.github.affinitykit.core.internal.natives.NativeLayer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * Cross-process CPU reservations: per CPU, OpenHFT's lock file {@code <directory>/cpu-<N>.lock} (so
 * OpenHFT and Affinity Kit JVMs exclude each other) and Affinity Kit's own {@code
 * cpu-<N>.lock.affinitykit}. Files are opened without following links, must be regular files with
 * one name, get mode {@code 0666} when this process creates them, and are never deleted. A
 * reservation whose file OpenHFT deleted or replaced is <em>lost</em>. A lock file's text is a
 * sanitised claim, never acted on: the kernel's lock alone says who holds a CPU (ARCHITECTURE.md,
 * "Reservations"). One instance per directory in a JVM owns the only descriptor on each lock file,
 * as closing one drops this process's POSIX locks. Failures are results, not exceptions.
 *
 * <p>Thread safety: all methods are safe to call from any thread; they serialise on the instance.
 */
public final class CpuReservations {
  private static final ConcurrentMap<Path, CpuReservations> BY_DIRECTORY =
      new ConcurrentHashMap<>();

  private final Path directory;
  private final Function<Path, LockFile> opener;
  private final Map<Integer, CpuLock> files = new HashMap<>(); // guarded by this
  private final AtomicLong lost = new AtomicLong();
  private final long pid = ProcessHandle.current().pid();
  private final LongSupplier clockMillis;
  private boolean directoryMade; // guarded by this
  private long holderSecond = Long.MIN_VALUE; // guarded by this, as the two below
  private String holderText = "";
  private byte[] holderBytes = new byte[0];

  CpuReservations(Path directory, Function<Path, LockFile> opener, LongSupplier clockMillis) {
    this.directory = directory;
    this.opener = opener;
    this.clockMillis = clockMillis;
  }

  /**
   * {@return this JVM's one instance for {@code directory} (created on the first reservation if
   * missing); paths naming it through symbolic links give the same instance}
   *
   * @param directory where the {@code cpu-<N>.lock} files live
   */
  public static CpuReservations inDirectory(Path directory) {
    Objects.requireNonNull(directory, "directory");
    return BY_DIRECTORY.computeIfAbsent(
        canonical(directory), d -> withLayer(d, NativeLayer.system()));
  }

  /**
   * An unshared instance whose lock files go through {@code layer}'s file calls, or Java's {@code
   * FileChannel} where it has none (tests, benchmarks).
   */
  static CpuReservations withLayer(Path directory, NativeLayer layer) {
    FileCalls calls = layer.files().orElse(null);
    return new CpuReservations(
        canonical(directory),
        calls == null ? ChannelLockFile::new : path -> new NativeLockFile(path, calls),
        System::currentTimeMillis);
  }

  /** {@return the instance for {@code java.io.tmpdir}, as {@link #inDirectory(Path)} gives it} */
  public static CpuReservations inTempDirectory() {
    return inDirectory(LockDirectory.tempDirectory());
  }

  /**
   * {@return the instance for {@code -Daffinitykit.lock.dir}, else {@code AFFINITYKIT_LOCK_DIR},
   * else {@code java.io.tmpdir}; read at each call, blank counting as unset}
   *
   * @throws IllegalArgumentException if the property or variable used is not an absolute path
   */
  public static CpuReservations inConfiguredDirectory() {
    return inDirectory(LockDirectory.configured());
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

  /** {@return the absolute directory, symbolic links of its existing part resolved} */
  public Path directory() {
    return directory;
  }

  /**
   * {@return the path of OpenHFT's lock file for {@code cpu}; the file may not exist yet}
   *
   * @param cpu the CPU, 0-based, below {@link CpuSet#MAX_CPUS}
   */
  public Path lockFile(int cpu) {
    return directory.resolve("cpu-" + checkCpu(cpu) + ".lock");
  }

  /**
   * Tries once to reserve {@code cpu}, without waiting.
   *
   * @param cpu the CPU to reserve, 0-based
   * @return {@link ReservationStatus#RESERVED} with the reservation, or why not: held by this JVM,
   *     held by another process (with its pid), or unavailable (with the I/O error)
   * @throws IllegalArgumentException if {@code cpu} is not in 0 to {@link CpuSet#MAX_CPUS} - 1
   */
  public synchronized ReservationResult tryReserve(int cpu) {
    CpuLock file = files.get(checkCpu(cpu));
    if (file == null) {
      Path path = lockFile(cpu);
      file =
          new CpuLock(
              opener.apply(path.resolveSibling(CpuLock.ownName(path.getFileName().toString()))),
              opener.apply(path));
      files.put(cpu, file);
    }
    if (file.isLocked()) {
      return ReservationResult.failed(
          cpu,
          ReservationStatus.HELD_BY_THIS_JVM,
          pid,
          "cpu " + cpu + ": already reserved by this JVM (pid " + pid + ") in " + file.path());
    }
    ReservationResult failure = directoryMade ? null : makeDirectory(cpu);
    if (failure == null) {
      holderNow();
      failure = file.tryLock(cpu, holderText, holderBytes);
      if (failure != null
          && failure.status() == ReservationStatus.UNAVAILABLE
          && !Files.isDirectory(directory)) {
        failure = makeDirectory(cpu); // removed since it was made: make it again, then retry
        failure = failure != null ? failure : file.tryLock(cpu, holderText, holderBytes);
      }
    }
    return failure != null
        ? failure
        : ReservationResult.reserved(new Reservation(this, cpu, CpuSet.of(cpu), file.path()));
  }

  /**
   * Tries once to reserve {@code cpu} and every CPU of {@code with}, all or none, as OpenHFT's
   * {@code obtainLock(cpu, cpu2, metaInfo)} does (a whole core's SMT siblings).
   *
   * @param cpu the CPU to reserve, 0-based: {@link Reservation#cpu()} of the result
   * @param with the CPUs to hold with it; the reservation's close frees them all
   * @return the reservation of them all, or the first refusal (nothing is then kept reserved)
   * @throws IllegalArgumentException as {@link #tryReserve(int)}
   */
  public synchronized ReservationResult tryReserve(int cpu, CpuSet with) {
    CpuSet all = with.union(CpuSet.of(cpu));
    if (all.size() == 1) {
      return tryReserve(cpu); // the one-CPU path, as it always was
    }
    int[] order = IntStream.concat(IntStream.of(cpu), all.minus(CpuSet.of(cpu)).stream()).toArray();
    for (int i = 0; i < order.length; i++) {
      ReservationResult r = tryReserve(order[i]);
      if (!r.isReserved()) {
        release(CpuSet.of(Arrays.copyOf(order, i)));
        return r;
      }
    }
    return ReservationResult.reserved(new Reservation(this, cpu, all, lockFile(cpu)));
  }

  /** Creates the directory: null when it exists, else the failure for {@code cpu}. */
  private ReservationResult makeDirectory(int cpu) {
    try {
      Files.createDirectories(directory);
      directoryMade = true;
      return null;
    } catch (IOException e) {
      return ReservationResult.unavailable(
          cpu, "cannot create directory " + directory + ": " + LockText.describe(e));
    }
  }

  /** Refreshes the holder's text ({@link LockText#forHolder}) at most once a second. */
  private void holderNow() {
    long millis = clockMillis.getAsLong();
    long second = Math.floorDiv(millis, 1000);
    if (second != holderSecond) {
      ZonedDateTime since =
          ZonedDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneId.systemDefault());
      holderText = LockText.forHolder(pid, since);
      holderBytes = holderText.getBytes(StandardCharsets.UTF_8);
      holderSecond = second;
    }
  }

  /** The holder's text as last written (tests). */
  synchronized byte[] holderBytes() {
    return holderBytes;
  }

  /**
   * Reserves the lowest CPU of {@code candidates} that {@link #tryReserve(int)} can reserve.
   *
   * @param candidates the CPUs to try, lowest first
   * @return the reservation, or {@link ReservationStatus#NONE_FREE} (cpu {@code -1}) whose reason
   *     lists why each candidate failed
   */
  public ReservationResult reserveFirstFree(CpuSet candidates) {
    Objects.requireNonNull(candidates, "candidates");
    StringJoiner why = new StringJoiner("; ", "no free cpu among [" + candidates + "]: ", "");
    why.setEmptyValue("no free cpu among []: no candidates");
    for (int cpu : candidates.toArray()) {
      ReservationResult r = tryReserve(cpu);
      if (r.isReserved()) {
        return r;
      }
      why.add(r.reason());
    }
    return ReservationResult.failed(-1, ReservationStatus.NONE_FREE, -1, why.toString());
  }

  /**
   * {@return the sanitised text of {@code cpu}'s lock file: a claim to show, never to act on}
   *
   * @param cpu the CPU whose lock file to read, 0-based
   */
  public synchronized Optional<String> holder(int cpu) {
    CpuLock file = files.get(checkCpu(cpu));
    String text = file == null ? "" : file.knownText();
    return text.isEmpty() ? Optional.empty() : Optional.of(text);
  }

  /**
   * Checks that every reservation this JVM holds here still names its locked files; a loss is
   * counted in {@link #lostCount()} once and logged.
   *
   * @return the CPUs whose reservation is lost
   */
  public synchronized CpuSet verifyHeld() {
    files.forEach((cpu, file) -> verify(cpu, file));
    return locked(CpuLock::isLost);
  }

  private CpuSet locked(Predicate<CpuLock> and) {
    return CpuSet.of(
        files.entrySet().stream()
            .filter(e -> e.getValue().isLocked() && and.test(e.getValue()))
            .mapToInt(Map.Entry::getKey)
            .toArray());
  }

  /** {@return how many reservations made here were found lost since this JVM started} */
  public long lostCount() {
    return lost.get();
  }

  /** Checks the files of {@code r}'s CPUs if it is still held; whether it is lost. */
  synchronized boolean verify(Reservation r) {
    boolean lost = false;
    for (int cpu : r.cpus().toArray()) {
      lost |= r.isHeld() && verify(cpu);
    }
    return lost;
  }

  private boolean verify(int cpu) {
    CpuLock file = files.get(cpu);
    return file != null && (verify(cpu, file) || file.isLost());
  }

  private boolean verify(int cpu, CpuLock file) {
    boolean newly = file.verify(cpu);
    if (newly) {
      lost.incrementAndGet();
    }
    return newly;
  }

  /** {@return the CPUs whose lock files this JVM has locked here now} */
  public synchronized CpuSet reservedHere() {
    return locked(f -> true);
  }

  /** Checks, then frees {@code cpus}; whether a reservation of them was lost. */
  synchronized boolean release(CpuSet cpus) {
    boolean wasLost = false;
    for (int cpu : cpus.toArray()) {
      CpuLock file = files.get(cpu);
      if (file != null) {
        wasLost |= verify(cpu);
        file.release();
      }
    }
    return wasLost;
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
