package io.github.affinitykit.core.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every CPU reservation in a lock directory, read only (OpenHFT's {@code dumpLocks()}, for every
 * process): per CPU, its lock files ({@code cpu-<N>.lock}, OpenHFT's, and {@code
 * cpu-<N>.lock.affinitykit}, Affinity Kit's), whether the kernel holds a lock on them and for which
 * process, or why not. A file is never opened for writing, never locked, never changed.
 *
 * <p>Who holds a lock is the kernel's answer, not the file's text (anyone may write that; it is
 * shown as a claim): {@code /proc/locks} lists the locks on each file's device and inode, with the
 * holder's pid for a classic POSIX lock (OpenHFT's) and -1 for an open file description lock
 * (Affinity Kit's); for those, the holder is the process with a descriptor on the file whose {@code
 * fdinfo} shows the lock. A holder of another user is seen only by root.
 *
 * <p>Thread safety: stateless.
 */
final class LockTable {
  private static final Pattern NAME = Pattern.compile("cpu-(\\d+)\\.lock(\\.affinitykit)?");
  private static final int MAX_TEXT = 256;

  private LockTable() {}

  /**
   * One CPU's reservation.
   *
   * @param cpu the CPU
   * @param state {@code HELD}, {@code STALE} (files, no lock on them) or {@code UNREADABLE}
   * @param pids the holders the kernel names (empty: none, or not visible to this user)
   * @param files what each file is: its name, and its claim or why it cannot be read
   */
  record Entry(int cpu, String state, List<Long> pids, List<String> files) {}

  /** {@return a row per CPU with a lock file in {@code dir}, by CPU; {@code proc}: /proc} */
  static List<Entry> read(Path dir, Path proc) throws IOException {
    Map<Integer, List<Path>> byCpu = new TreeMap<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "cpu-*.lock*")) {
      for (Path f : files) {
        Matcher m = NAME.matcher(f.getFileName().toString());
        if (m.matches() && m.group(1).length() < 6) {
          byCpu.computeIfAbsent(Integer.parseInt(m.group(1)), c -> new ArrayList<>()).add(f);
        }
      }
    }
    Map<String, List<Long>> locks = locks(proc);
    Map<String, List<Long>> fdHolders = null; // read once, if an OFD lock needs it
    List<Entry> entries = new ArrayList<>();
    for (Map.Entry<Integer, List<Path>> e : byCpu.entrySet()) {
      List<Long> pids = new ArrayList<>();
      List<String> notes = new ArrayList<>();
      boolean locked = false;
      boolean unreadable = false;
      for (Path f : e.getValue().stream().sorted().toList()) {
        Optional<String> id = fileId(f);
        if (id.isEmpty()) {
          unreadable = true;
          notes.add(f.getFileName() + ": not a regular file of its own");
          continue;
        }
        List<Long> holders = locks.getOrDefault(id.get(), List.of());
        locked |= !holders.isEmpty();
        if (holders.contains(-1L)) {
          fdHolders = fdHolders != null ? fdHolders : fdHolders(proc);
          holders = fdHolders.getOrDefault(id.get(), List.of());
        }
        holders.stream().filter(p -> p > 0 && !pids.contains(p)).forEach(pids::add);
        Optional<String> text = claim(f, proc);
        unreadable |= text.isEmpty();
        notes.add(f.getFileName() + ": " + text.orElse("cannot be read"));
      }
      String state = locked ? "HELD" : unreadable ? "UNREADABLE" : "STALE";
      entries.add(new Entry(e.getKey(), state, pids, notes));
    }
    return entries;
  }

  /** {@return a regular file's {@code /proc/locks} id ({@code fe:00:1234}), empty if not one} */
  static Optional<String> fileId(Path file) {
    try {
      if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
        return Optional.empty();
      }
      long dev = (Long) Files.getAttribute(file, "unix:dev", LinkOption.NOFOLLOW_LINKS);
      long inode = (Long) Files.getAttribute(file, "unix:ino", LinkOption.NOFOLLOW_LINKS);
      long major = ((dev >>> 8) & 0xfffL) | ((dev >>> 32) & ~0xfffL);
      long minor = (dev & 0xffL) | ((dev >>> 12) & ~0xffL);
      return Optional.of(String.format(Locale.ROOT, "%02x:%02x:%d", major, minor, inode));
    } catch (IOException | UnsupportedOperationException e) {
      return Optional.empty();
    }
  }

  /** {@return file id to the pids of its granted locks (-1: an open file description's)} */
  static Map<String, List<Long>> locks(Path proc) throws IOException {
    Map<String, List<Long>> locks = new HashMap<>();
    for (String line : Files.readAllLines(proc.resolve("locks"), StandardCharsets.UTF_8)) {
      lockLine(line, locks);
    }
    return locks;
  }

  /** Adds a {@code /proc/locks} line ({@code 1: OFDLCK ADVISORY WRITE -1 fe:00:12 0 EOF}). */
  private static void lockLine(String line, Map<String, List<Long>> locks) {
    String[] f = line.strip().split("\\s+");
    if (f.length >= 8 && !f[1].equals("->") && f[4].matches("-?\\d+")) {
      locks.computeIfAbsent(f[5], k -> new ArrayList<>()).add(Long.parseLong(f[4]));
    }
  }

  /**
   * {@return file id to the pids holding a lock on it through a descriptor} ({@code
   * /proc/<pid>/fdinfo/<fd>}'s {@code lock:} lines); processes this user cannot see are skipped
   */
  static Map<String, List<Long>> fdHolders(Path proc) throws IOException {
    Map<String, List<Long>> holders = new HashMap<>();
    try (DirectoryStream<Path> pids = Files.newDirectoryStream(proc, "[0-9]*")) {
      for (Path p : pids) {
        long pid = Long.parseLong(p.getFileName().toString());
        try (DirectoryStream<Path> infos = Files.newDirectoryStream(p.resolve("fdinfo"))) {
          for (Path info : infos) {
            Map<String, List<Long>> one = new HashMap<>();
            for (String line : Files.readAllLines(info, StandardCharsets.UTF_8)) {
              if (line.startsWith("lock:")) {
                lockLine(line.substring("lock:".length()), one);
              }
            }
            one.keySet()
                .forEach(id -> holders.computeIfAbsent(id, k -> new ArrayList<>()).add(pid));
          }
        } catch (IOException | RuntimeException e) {
          // another user's process (without root), or one that ended: not seen
        }
      }
    }
    return holders;
  }

  /**
   * {@return what {@code file}'s text claims (a claim, never a fact), and whether a process of the
   * pid it claims runs ({@code proc}); empty if unreadable}
   */
  static Optional<String> claim(Path file, Path proc) {
    byte[] bytes;
    try (InputStream in =
        Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      bytes = in.readNBytes(MAX_TEXT);
    } catch (IOException e) {
      return Optional.empty();
    }
    String text = OneLineErrors.oneLine(new String(bytes, StandardCharsets.UTF_8).strip());
    int newline = text.indexOf("\\x0a");
    String pid = newline < 0 ? text : text.substring(0, newline);
    if (pid.matches("\\d{1,18}")) {
      String since = newline < 0 ? "" : " since " + text.substring(newline + 4);
      String runs = Files.isDirectory(proc.resolve(pid)) ? "runs" : "not running";
      return Optional.of("claims pid " + pid + since + " (" + runs + ")");
    }
    return Optional.of(text.isEmpty() ? "empty" : "says \"" + text + "\"");
  }
}
