package io.github.affinitykit.core.isolation;

import io.github.affinitykit.core.CpuSet;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What an isolation changes, with every value from before, written and forced to disk before the
 * first change is made, so that whoever finds it after a crash can undo it: one text file per
 * isolation, {@code isolation-<pid>.journal}, replaced atomically (written beside, forced, renamed,
 * directory forced).
 *
 * <pre>
 * affinitykit-isolation 1
 * owner 1234 56789 6f1c...      (pid, start time in ticks, boot id)
 * cpus 3
 * housekeeping 0-2
 * mechanism CGROUP_V2_PARTITION
 * mkdir /sys/fs/cgroup/affinitykit-1234 /sys/fs/cgroup cgroup.threads
 * write CGROUP RESTORE /sys/fs/cgroup/... (before) (text) (undo text)
 * task 1 1 12 init 0-3 0-2 0
 * end
 * </pre>
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
  private static final String MAGIC = "affinitykit-isolation 1";

  Journal {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(cpus, "cpus");
    Objects.requireNonNull(housekeeping, "housekeeping");
    Objects.requireNonNull(mechanism, "mechanism");
    steps = List.copyOf(steps);
  }

  /** The journal file of {@code owner} in {@code dir}. */
  static Path file(Path dir, Owner owner) {
    return dir.resolve(PREFIX + owner.pid() + SUFFIX);
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

  /** Writes the journal to {@code file} durably: beside it, forced, renamed, directory forced. */
  void write(Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path tmp = dir.resolve(file.getFileName() + ".tmp");
    try (FileChannel ch =
        FileChannel.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer buf = ByteBuffer.wrap(text().getBytes(StandardCharsets.UTF_8));
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
   * Reads a journal.
   *
   * @throws IOException if it cannot be read
   * @throws IllegalArgumentException if it is not a whole journal
   */
  static Journal read(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    if (lines.size() < 6
        || !lines.get(0).equals(MAGIC)
        || !lines.get(lines.size() - 1).equals("end")) {
      throw new IllegalArgumentException(
          "journal: " + file + " (expected: " + MAGIC + " ... end, a whole journal)");
    }
    String[] o = field(lines.get(1), "owner").split(" ", -1);
    if (o.length != 3) {
      throw new IllegalArgumentException(
          "journal owner: " + lines.get(1) + " (expected: 3 fields)");
    }
    Owner owner = new Owner(Long.parseLong(o[0]), Long.parseLong(o[1]), Escape.decode(o[2]));
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
