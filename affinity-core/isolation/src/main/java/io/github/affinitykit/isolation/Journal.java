package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What an isolation changes, with every value from before, written and forced to disk before the
 * first change is made, so that whoever finds it after a crash can undo it: one text file per
 * isolation, {@code isolation-<id>.journal} (the owner's random id, never a pid: pid namespaces
 * share pids), replaced atomically (written beside with no-follow and exclusive create, forced,
 * renamed, directory forced). Beside it {@code isolation-<id>.owner}, never renamed, carries the
 * owner's lock ({@link LockedFile}).
 *
 * <pre>
 * affinitykit-isolation 2
 * owner 6f1c0a2b3d4e5f60 1234 56789 b00t...   (id, pid, start time in ticks, boot id)
 * cpus 3
 * housekeeping 0-2
 * mechanism CGROUP_V2_PARTITION
 * mkdir /sys/fs/cgroup/affinitykit-6f1c0a2b3d4e5f60 /sys/fs/cgroup cgroup.threads
 * write CGROUP RESTORE /sys/fs/cgroup/... (before) (text) (undo text)
 * task 1 1 12 init 0-3 0-2 0
 * end
 * </pre>
 *
 * <p>A journal is read only if {@link Trusted} (a regular file of this user's, writable by it
 * alone), only up to {@link #MAX_BYTES} (a larger one is refused unread, and none that large is
 * written), and only whole: every path a step names must be one {@link Writable} allows, else the
 * whole journal is refused.
 *
 * <p>Thread safety: immutable.
 *
 * @param owner the isolating process
 * @param cpus the isolated CPUs
 * @param housekeeping the CPUs left to everything else
 * @param mechanism the mechanism
 * @param steps the changes, in the order they are applied
 */
record Journal(
    Owner owner, CpuSet cpus, CpuSet housekeeping, Mechanism mechanism, List<Step> steps) {
  static final String PREFIX = "isolation-";
  static final String SUFFIX = ".journal";
  static final String OWNER_SUFFIX = ".owner";

  /**
   * The largest journal read or written: 8 MiB, about 80,000 task steps (a task's step is under 100
   * bytes), more than a host's threads.
   */
  static final int MAX_BYTES = 8 << 20;

  private static final String MAGIC = "affinitykit-isolation 2";

  Journal {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(cpus, "cpus");
    Objects.requireNonNull(housekeeping, "housekeeping");
    Objects.requireNonNull(mechanism, "mechanism");
    steps = List.copyOf(steps);
  }

  /** The journal file of {@code owner} in {@code dir}. */
  static Path file(Path dir, Owner owner) {
    return dir.resolve(PREFIX + owner.id() + SUFFIX);
  }

  /** The owner lock file beside journal {@code file}: never renamed, unlike the journal. */
  static Path ownerFile(Path file) {
    String name = file.getFileName().toString();
    String base = name.endsWith(SUFFIX) ? name.substring(0, name.length() - SUFFIX.length()) : name;
    return file.resolveSibling(base + OWNER_SUFFIX);
  }

  /** The same journal with more steps (found by a second pass). */
  Journal plus(List<Step> more) {
    List<Step> all = new ArrayList<>(steps);
    all.addAll(more);
    return new Journal(owner, cpus, housekeeping, mechanism, all);
  }

  String text() {
    StringBuilder sb = new StringBuilder(MAGIC).append('\n');
    sb.append("owner ")
        .append(owner.id())
        .append(' ')
        .append(owner.pid())
        .append(' ')
        .append(owner.startTicks())
        .append(' ')
        .append(Escape.encode(owner.bootId()))
        .append('\n');
    sb.append("cpus ").append(Escape.encode(cpus.toString())).append('\n');
    sb.append("housekeeping ").append(Escape.encode(housekeeping.toString())).append('\n');
    sb.append("mechanism ").append(mechanism.name()).append('\n');
    steps.forEach(s -> sb.append(s.journal()).append('\n'));
    return sb.append("end\n").toString();
  }

  /**
   * Writes the journal to {@code file} durably: beside it ({@code .tmp}, created exclusively, no
   * link followed; a stale one of this user's removed first), forced, renamed, directory forced.
   *
   * @throws IOException if it cannot, if the directory or a stale {@code .tmp} is not to be
   *     trusted, or if the journal is over {@link #MAX_BYTES}
   */
  void write(Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Trusted.ensureDirectory(dir);
    byte[] bytes = text().getBytes(StandardCharsets.UTF_8);
    if (bytes.length > MAX_BYTES) {
      throw new IOException(
          "journal: " + bytes.length + " bytes (expected: at most " + MAX_BYTES + ")");
    }
    Path tmp = dir.resolve(file.getFileName() + ".tmp");
    Optional<String> stale = Trusted.file("journal", tmp, Long.MAX_VALUE);
    if (stale.isPresent()) {
      throw new FileSystemException(tmp.toString(), null, stale.get());
    }
    Files.deleteIfExists(tmp);
    try (FileChannel ch =
        FileChannel.open(
            tmp,
            Set.of(
                StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
      ByteBuffer buf = ByteBuffer.wrap(bytes);
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(true);
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    }
  }

  /**
   * Reads a journal, trusting nothing in it.
   *
   * @param writable the paths an isolation writes on this host
   * @throws IOException if it cannot be read
   * @throws IllegalArgumentException if it is not to be trusted (the message names the rule), over
   *     {@link #MAX_BYTES}, not a whole journal, or names a path no isolation writes
   */
  static Journal read(Path file, Writable writable) throws IOException {
    Journal j = parse(file, new String(bounded(file), StandardCharsets.UTF_8).split("\n", -1));
    for (Step step : j.steps()) {
      for (String path : step.paths()) {
        Optional<String> why = writable.refusal(path);
        if (why.isPresent()) {
          throw new IllegalArgumentException(why.get() + " in " + file + "; nothing of it done");
        }
      }
    }
    return j;
  }

  /** The file's bytes, read only if trusted and at most {@link #MAX_BYTES}. */
  private static byte[] bounded(Path file) throws IOException {
    Optional<String> why = Trusted.file("journal", file, MAX_BYTES);
    if (why.isPresent()) {
      throw new IllegalArgumentException(why.get());
    }
    try (FileChannel ch =
            FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        InputStream in = Channels.newInputStream(ch)) {
      byte[] bytes = in.readNBytes(MAX_BYTES + 1);
      if (bytes.length > MAX_BYTES) {
        throw new IllegalArgumentException(
            "journal: " + file + " over " + MAX_BYTES + " bytes (expected: at most that)");
      }
      return bytes;
    }
  }

  private static Journal parse(Path file, String[] all) {
    List<String> lines = List.of(all);
    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines = lines.subList(0, lines.size() - 1);
    }
    if (lines.size() < 6
        || !lines.get(0).equals(MAGIC)
        || !lines.get(lines.size() - 1).equals("end")) {
      throw new IllegalArgumentException(
          "journal: " + file + " (expected: " + MAGIC + " ... end, a whole journal)");
    }
    String[] o = field(lines.get(1), "owner").split(" ", -1);
    if (o.length != 4) {
      throw new IllegalArgumentException(
          "journal owner: " + lines.get(1) + " (expected: 4 fields)");
    }
    Owner owner = new Owner(o[0], Long.parseLong(o[1]), Long.parseLong(o[2]), Escape.decode(o[3]));
    if (!file.getFileName().toString().equals(PREFIX + owner.id() + SUFFIX)) {
      throw new IllegalArgumentException(
          "journal owner: " + owner.id() + " (expected: the id its file name " + file + " holds)");
    }
    List<Step> steps = new ArrayList<>();
    for (String line : lines.subList(5, lines.size() - 1)) {
      steps.add(Step.parse(line));
    }
    return new Journal(
        owner,
        CpuSet.parse(Escape.decode(field(lines.get(2), "cpus"))),
        CpuSet.parse(Escape.decode(field(lines.get(3), "housekeeping"))),
        Mechanism.valueOf(field(lines.get(4), "mechanism")),
        steps);
  }

  private static String field(String line, String key) {
    if (!line.startsWith(key + " ")) {
      throw new IllegalArgumentException("journal line: " + line + " (expected: " + key + " ...)");
    }
    return line.substring(key.length() + 1);
  }

  /** The journal files in {@code dir}, by name; none if it does not exist. */
  static List<Path> list(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, PREFIX + "*" + SUFFIX)) {
      s.forEach(out::add);
    }
    out.sort(null);
    return out;
  }
}
