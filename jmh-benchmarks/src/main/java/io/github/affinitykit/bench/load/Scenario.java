package io.github.affinitykit.bench.load;

import io.github.affinitykit.core.CpuSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How the gateway JVM is placed, and how its loops wait, for one trial.
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
  EXCLUSIVE,
  /**
   * Pinned loops that spin for a bounded time before blocking ({@code --pin pinned
   * --idle-policy=spin-then-block}): fewer wake-ups, some CPU burnt while idle.
   */
  PINNED_SPIN;

  /** The gateway option that makes the loops spin before they block. */
  static final String SPIN_THEN_BLOCK = "--idle-policy=spin-then-block";

  /** The name on the command line and in reports: {@code pinned-spin}. */
  String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Whether the gateway's event loops are pinned in this scenario. */
  boolean pinned() {
    return this == PINNED || this == EXCLUSIVE || this == PINNED_SPIN;
  }

  /**
   * The command that starts the gateway for this scenario: the one place a gateway command line is
   * built. With {@code housekeeping} CPUs the pinned scenarios run under {@code taskset -c <server
   * + housekeeping>}, so that their boss, GC and JIT live there and not on the client's CPUs;
   * without, their housekeeping is every CPU but the server's. The gateway's lock files go to
   * {@code lockDir}, never {@code /tmp}.
   */
  List<String> command(
      GatewayLaunch gateway,
      int port,
      CpuSet serverCpus,
      CpuSet housekeeping,
      Path lockDir,
      List<String> extra) {
    List<String> cmd = new ArrayList<>();
    if (this == TASKSET) {
      cmd.addAll(List.of("taskset", "-c", serverCpus.toString()));
    } else if (pinned() && !housekeeping.isEmpty()) {
      cmd.addAll(List.of("taskset", "-c", serverCpus.union(housekeeping).toString()));
    }
    cmd.add(gateway.java());
    cmd.add("--enable-native-access=ALL-UNNAMED");
    cmd.add("-XX:+ExitOnOutOfMemoryError"); // never a half-dead gateway (status 3)
    cmd.add("-Djava.io.tmpdir=" + lockDir);
    if (pinned()) {
      cmd.add("-Daffinitykit.pool=" + serverCpus);
    }
    cmd.addAll(gateway.mainArgs());
    cmd.addAll(List.of("--port", String.valueOf(port)));
    cmd.addAll(List.of("--pin", this == EXCLUSIVE ? "exclusive" : pinned() ? "pinned" : "none"));
    if (this == PINNED_SPIN) {
      cmd.add(SPIN_THEN_BLOCK);
    }
    cmd.addAll(extra);
    return cmd;
  }

  /** Parses a comma-separated list of scenario names, any case. */
  static List<Scenario> parseList(String text) {
    List<Scenario> out = new ArrayList<>();
    for (String s : text.split(",")) {
      try {
        out.add(valueOf(s.trim().toUpperCase(Locale.ROOT).replace('-', '_')));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "--scenarios: " + s + " (expected: unpinned, taskset, pinned, exclusive, pinned-spin)",
            e);
      }
    }
    return out;
  }
}
