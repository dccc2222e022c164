package io.github.affinitykit.bench.load;

import io.github.affinitykit.core.CpuSet;
import java.nio.file.Path;
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

  /**
   * The command that starts the gateway for this scenario. With {@code housekeeping} CPUs the
   * pinned scenarios run under {@code taskset -c <server + housekeeping>}, so that their boss, GC
   * and JIT live there and not on the client's CPUs; without, their housekeeping is every CPU but
   * the server's. The gateway's lock files go to {@code lockDir}, never {@code /tmp}.
   */
  List<String> command(
      String java,
      String jar,
      int port,
      CpuSet serverCpus,
      CpuSet housekeeping,
      Path lockDir,
      List<String> extra) {
    List<String> cmd = new ArrayList<>();
    if (this == TASKSET) {
      cmd.addAll(List.of("taskset", "-c", serverCpus.toString()));
    } else if ((this == PINNED || this == EXCLUSIVE) && !housekeeping.isEmpty()) {
      cmd.addAll(List.of("taskset", "-c", serverCpus.union(housekeeping).toString()));
    }
    cmd.add(java);
    cmd.add("--enable-native-access=ALL-UNNAMED");
    cmd.add("-XX:+ExitOnOutOfMemoryError"); // never a half-dead gateway (status 3)
    cmd.add("-Djava.io.tmpdir=" + lockDir);
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
