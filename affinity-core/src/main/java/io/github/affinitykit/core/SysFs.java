package io.github.affinitykit.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;

/**
 * Reads kernel pseudo-files ({@code /sys}, {@code /proc}) under a root directory: {@code /} in
 * production, an unpacked fixture tree in tests. Absent files are {@code Optional.empty()}, never
 * an error: most of these files exist only on some kernels.
 *
 * <p>Thread safety: immutable; safe to share.
 */
final class SysFs {
  private final Path root;

  SysFs(Path root) {
    this.root = Objects.requireNonNull(root, "root");
  }

  Path root() {
    return root;
  }

  /** Resolves an absolute kernel path ({@code /sys/...}) under the root. */
  Path path(String absolute) {
    return root.resolve(absolute.startsWith("/") ? absolute.substring(1) : absolute);
  }

  boolean exists(String absolute) {
    return Files.exists(path(absolute));
  }

  /** The file's text with trailing whitespace removed, or empty if the file does not exist. */
  Optional<String> read(String absolute) {
    try {
      return Optional.of(
          new String(Files.readAllBytes(path(absolute)), StandardCharsets.UTF_8).stripTrailing());
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      // EACCES, EINVAL on some sysfs attributes, or a directory: treat as unreadable, not fatal.
      return Optional.empty();
    }
  }

  /** The file's lines, or an empty list if it does not exist. */
  List<String> lines(String absolute) {
    return read(absolute).map(s -> List.of(s.split("\n", -1))).orElse(List.of());
  }

  /** The file parsed as a kernel cpu list, or empty if absent. */
  Optional<CpuSet> cpuList(String absolute) {
    return read(absolute).map(CpuSet::parse);
  }

  /** The file parsed as a decimal int, or empty if absent or not a number. */
  OptionalInt integer(String absolute) {
    Optional<String> s = read(absolute);
    if (s.isEmpty()) {
      return OptionalInt.empty();
    }
    try {
      return OptionalInt.of(Integer.parseInt(s.get().trim()));
    } catch (NumberFormatException e) {
      return OptionalInt.empty();
    }
  }

  /** Names of the entries of a directory, sorted; empty if absent. */
  List<String> list(String absolute) {
    Path dir = path(absolute);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      List<String> names = new ArrayList<>();
      s.forEach(p -> names.add(p.getFileName().toString()));
      names.sort(null);
      return names;
    } catch (IOException e) {
      throw new UncheckedIOException("list " + dir, e);
    }
  }
}
