package io.github.affinitykit.core.cli;

import io.github.affinitykit.isolation.Isolator;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options {@code isolate} and {@code release} share: JSON output and the journal directory.
 *
 * <p>Thread safety: one instance per run.
 */
final class IsolationOptions {
  @Option(names = "--json", description = "print reports as JSON")
  private boolean json;

  @Option(
      names = "--journal-dir",
      paramLabel = "DIR",
      description = "where the undo journals are (default ${DEFAULT-VALUE})")
  private Path journalDir = defaultDirectory();

  boolean json() {
    return json;
  }

  Path journalDir() {
    return journalDir;
  }

  /** {@code -Daffinitykit.isolation.dir}, else {@code /run/affinitykit}. */
  static Path defaultDirectory() {
    return Path.of(System.getProperty(Isolator.DIRECTORY_PROPERTY, "/run/affinitykit"));
  }
}
