package io.github.affinitykit.bench.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Which kind of exclusivity the {@code exclusive} scenario measured, in one sentence: the JVM-level
 * kind (loops pinned, the rest of the gateway confined to the housekeeping CPUs) or, with {@code
 * --isolate}, runtime isolation of the server's worker CPUs, as the gateways reported it in their
 * log ({@code isolation active: ...} or {@code isolation refused: ...}, one line per gateway).
 *
 * <p>Thread safety: stateless.
 */
final class Exclusivity {
  private static final String ACTIVE = "isolation active: ";
  private static final String REFUSED = "isolation refused: ";

  private Exclusivity() {}

  /** The sentence for a run that asked for runtime isolation ({@code isolate}) or not. */
  static String describe(boolean isolate, Path gatewayLog) {
    if (!isolate) {
      return "JVM-level: loops pinned, the rest of the gateway JVM confined to the housekeeping"
          + " CPUs; other processes, kernel threads and IRQs may still run on the server CPUs"
          + " (--isolate isolates them at runtime)";
    }
    List<String> lines = isolationLines(gatewayLog);
    long active = lines.stream().filter(l -> l.startsWith(ACTIVE)).count();
    String mechanism =
        lines.stream()
            .filter(l -> l.startsWith(ACTIVE))
            .findFirst()
            .map(l -> " (" + l.substring(ACTIVE.length()) + ")")
            .orElse("");
    String refused =
        lines.stream()
            .filter(l -> l.startsWith(REFUSED))
            .findFirst()
            .map(
                l ->
                    "; refused in "
                        + (lines.size() - active)
                        + ": "
                        + l.substring(REFUSED.length()))
            .orElse("");
    return "runtime isolation of the server's worker CPUs (--isolate): active in "
        + active
        + " of "
        + lines.size()
        + " exclusive gateway(s)"
        + mechanism
        + refused;
  }

  private static List<String> isolationLines(Path log) {
    try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
      return lines.map(String::strip).filter(l -> l.startsWith("isolation ")).toList();
    } catch (IOException | UncheckedIOException e) {
      return List.of();
    }
  }
}
