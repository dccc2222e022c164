package io.github.affinitykit.bench.load;

import io.github.affinitykit.core.CpuSet;
import java.util.ArrayList;
import java.util.List;

/**
 * How the gateway JVM is placed for one trial.
 *
 * <p>Thread safety: immutable.
 */
public enum Scenario {
  /** Nothing pinned: the server may use every CPU, the client's included. */
  UNPINNED,
  /** The whole server JVM under {@code taskset -c <server CPUs>}: the pinned runs' CPU budget. */
  TASKSET,
  /** Event loops pinned to the server CPUs ({@code --pin pinned}), the rest of the JVM free. */
  PINNED,
  /**
   * Pinned, and the rest of the JVM confined to the housekeeping CPUs ({@code --pin exclusive}).
   */
  EXCLUSIVE;

  /** The command that starts the gateway for this scenario. */
  List<String> command(String java, String jar, int port, CpuSet serverCpus, List<String> extra) {
    List<String> cmd = new ArrayList<>();
    if (this == TASKSET) {
      cmd.addAll(List.of("taskset", "-c", serverCpus.toString()));
    }
    cmd.add(java);
    cmd.add("--enable-native-access=ALL-UNNAMED");
    if (this == PINNED || this == EXCLUSIVE) {
      cmd.add("-Daffinitykit.pool=" + serverCpus);
    }
    cmd.addAll(List.of("-jar", jar, "--port", String.valueOf(port)));
    cmd.addAll(
        List.of("--pin", this == PINNED ? "pinned" : this == EXCLUSIVE ? "exclusive" : "none"));
    cmd.addAll(extra);
    return cmd;
  }

  /** Parses a comma-separated list of scenario names, any case. */
  static List<Scenario> parseList(String text) {
    List<Scenario> out = new ArrayList<>();
    for (String s : text.split(",")) {
      try {
        out.add(valueOf(s.trim().toUpperCase(java.util.Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "--scenarios: " + s + " (expected: unpinned, taskset, pinned, exclusive)", e);
      }
    }
    return out;
  }
}
