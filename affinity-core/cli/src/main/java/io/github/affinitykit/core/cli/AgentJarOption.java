package io.github.affinitykit.core.cli;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code --agent PATH}: the agent jar that {@code pin --pid} and {@code threads --pid} load into a
 * JVM; by default {@code affinity-agent.jar} beside the jar this command line runs from ({@code
 * affinity-cli.jar}; the build puts it there).
 *
 * <p>Thread safety: one instance per run.
 */
final class AgentJarOption {
  static final String RULE =
      "the agent's jar, affinity-agent.jar (default: beside affinity-cli.jar)";

  @Option(
      names = "--agent",
      paramLabel = "PATH",
      description = "the agent jar to load (default: affinity-agent.jar beside affinity-cli.jar)")
  private Path agent;

  /** {@return the jar, checked to be a regular file} */
  Path jar(CommandSpec spec) {
    Path jar = agent != null ? agent : beside(codeSource()).orElse(Path.of("affinity-agent.jar"));
    Path abs = jar.toAbsolutePath();
    CommandLines.require(spec, Files.isRegularFile(abs), "--agent", abs, RULE);
    return abs;
  }

  /**
   * {@return affinity-agent.jar beside {@code codeSource}: in the directory of the jar, or of the
   * classes directory (the build's {@code target/})}
   */
  static Optional<Path> beside(Optional<Path> codeSource) {
    return codeSource
        .map(p -> p.toAbsolutePath().getParent())
        .map(dir -> dir.resolve("affinity-agent.jar"));
  }

  private static Optional<Path> codeSource() {
    try {
      var source = AgentJarOption.class.getProtectionDomain().getCodeSource();
      return source == null ? Optional.empty() : Optional.of(Path.of(source.getLocation().toURI()));
    } catch (URISyntaxException | SecurityException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
