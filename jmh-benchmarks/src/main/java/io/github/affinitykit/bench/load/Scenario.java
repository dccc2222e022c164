package io.github.affinitykit.bench.load;

import io.github.affinitykit.core.cpu.CpuSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How the gateway JVM is placed, and how its loops wait, for one trial: an arm of the comparison.
 * Five are scenarios a user chooses; two are the controls every default run adds beside them.
 *
 * <p>Thread safety: immutable.
 */
public enum Scenario {
  /** Nothing pinned: the server may use every CPU, the client's included. The baseline. */
  UNPINNED,
  /** Control: a second unpinned arm, which must read "the same within noise" (A/A). */
  UNPINNED_AA,
  /**
   * Control: the unpinned server with a known handicap, threads of its own burning a fixed share of
   * a CPU ({@link HandicappedGateway}), which must be detected.
   */
  HANDICAPPED,
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
   * --wait-policy=spin-then-block}): fewer wake-ups, some CPU burnt while idle.
   */
  PINNED_SPIN;

  /** The gateway option that makes the loops spin before they block. */
  static final String SPIN_THEN_BLOCK = "--wait-policy=spin-then-block";

  /** The name on the command line and in reports: {@code pinned-spin}. */
  String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Whether this arm is a control rather than a scenario a user chooses. */
  boolean control() {
    return this == UNPINNED_AA || this == HANDICAPPED;
  }

  /**
   * Whether this arm runs the unpinned gateway as it is (the baseline and its A/A twin): where its
   * trials ran says where the operating point is.
   */
  boolean unpinnedGateway() {
    return this == UNPINNED || this == UNPINNED_AA;
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
   * {@code lockDir}, never {@code /tmp}. The handicapped arm carries {@code handicap} (work per
   * message, or threads burning a share of a CPU: {@link Handicap#launch}).
   */
  List<String> command(
      GatewayLaunch gateway,
      int port,
      CpuSet serverCpus,
      CpuSet housekeeping,
      Path lockDir,
      Handicap handicap,
      boolean isolate,
      List<String> extra) {
    List<String> cmd = new ArrayList<>();
    if (this == TASKSET) {
      cmd.addAll(List.of("taskset", "-c", serverCpus.toString()));
    } else if (pinned() && !housekeeping.isEmpty()) {
      cmd.addAll(List.of("taskset", "-c", serverCpus.union(housekeeping).toString()));
    }
    cmd.add(gateway.java());
    cmd.add("--enable-native-access=ALL-UNNAMED");
    if (!pinMode(isolate).equals("isolated")) { // isolated: the gateway restores, then halts
      cmd.add("-XX:+ExitOnOutOfMemoryError"); // never a half-dead gateway (status 3)
    }
    cmd.add("-Djava.io.tmpdir=" + lockDir);
    if (pinned()) {
      cmd.add("-Daffinitykit.pool=" + serverCpus);
    }
    cmd.addAll(this == HANDICAPPED ? handicap.launch(gateway) : gateway.mainArgs());
    cmd.addAll(List.of("--port", String.valueOf(port)));
    cmd.addAll(List.of("--pin", pinMode(isolate)));
    if (this == PINNED_SPIN) {
      cmd.add(SPIN_THEN_BLOCK);
    }
    cmd.addAll(extra);
    return cmd;
  }

  /**
   * The gateway's {@code --pin}: exclusive is {@code isolated} when the run isolates at runtime.
   */
  private String pinMode(boolean isolate) {
    if (this == EXCLUSIVE) {
      return isolate ? "isolated" : "exclusive";
    }
    return pinned() ? "pinned" : "unpinned";
  }

  /** Parses a comma-separated list of scenario names, any case; controls are not scenarios. */
  static List<Scenario> parseList(String text) {
    List<Scenario> out = new ArrayList<>();
    for (String s : text.split(",")) {
      Scenario parsed = null;
      try {
        parsed = valueOf(s.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
      } catch (IllegalArgumentException notAName) {
        // said below
      }
      if (parsed == null || parsed.control()) {
        throw new IllegalArgumentException(
            "--scenarios: " + s + " (expected: unpinned, taskset, pinned, exclusive, pinned-spin)");
      }
      out.add(parsed);
    }
    return out;
  }

  /**
   * The arms of a run: {@code scenarios} in their order, with the two controls right after unpinned
   * when {@code controls} and unpinned is among them (they compare against it).
   */
  static List<Scenario> arms(List<Scenario> scenarios, boolean controls) {
    List<Scenario> out = new ArrayList<>();
    for (Scenario s : scenarios) {
      out.add(s);
      if (s == UNPINNED && controls) {
        out.add(UNPINNED_AA);
        out.add(HANDICAPPED);
      }
    }
    return out;
  }
}
