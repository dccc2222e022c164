package io.github.affinitykit.agent;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuGroup;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The agent's {@code carriers=<group rule>} rule: the virtual-thread scheduler's carrier threads
 * (JDK 21+), one per CPU of the group. At start-up the scheduler is sized to the group's CPUs
 * ({@value #PARALLELISM}, which it reads once, when the first virtual thread is made), unless the
 * user set it; each carrier binds as its {@code run()} starts, through a seat of the group: the
 * first ones each on a CPU of their own, those the scheduler adds to cover blocking on all the
 * group's CPUs (the run-out policy UNPINNED with the group's CPUs as its mask). A carrier starts
 * from the mask the process had when the agent loaded, not the one it inherits from the thread that
 * made it (a pinned carrier, often): so no carrier keeps a single CPU by accident, and closing its
 * lease gives it back the process's mask.
 *
 * <p>Thread safety: safe for concurrent use (each carrier binds itself; the one-time report is a
 * compare-and-set).
 */
final class Carriers {
  /** The glob the rule is given under; it names no thread. */
  static final String GLOB = "carriers";

  /** The scheduler's size, read once by the JDK. */
  static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";

  private static final String CARRIER = "jdk.internal.misc.CarrierThread";
  private static final List<String> REFUSED =
      List.of("count", "explicit", "runout", "unpinned", "unpinned-mask");
  private final AffinityBackend backend;
  private final CpuSet start;
  private final Consumer<String> err;
  private final AtomicBoolean told = new AtomicBoolean();

  /**
   * The carriers of this JVM; {@code start} (empty: leave it) is the mask each carrier starts from.
   */
  Carriers(AffinityBackend backend, CpuSet start, Consumer<String> err) {
    this.backend = backend;
    this.start = start;
    this.err = err;
  }

  /** {@return whether {@code t} is a carrier of the virtual-thread scheduler} */
  static boolean isCarrier(Thread t) {
    return t.getClass().getName().equals(CARRIER);
  }

  /**
   * Builds the carriers' group of {@code rule}: its CPUs are its pool; carriers beyond one per CPU
   * run on all of them. Reserves nothing.
   *
   * @param kit the agent's kit
   * @param rule the group rule: {@code cpus}, {@code placement}, {@code memory}, {@code isolate}
   * @param atStart whether the JVM is starting ({@code premain}), not attached to
   * @param carriers how many carriers run now
   * @throws IllegalArgumentException in the house form, naming the rule and what was expected
   */
  static CpuGroup group(AffinityKit kit, String rule, boolean atStart, long carriers) {
    Optional<String> refused = refusal(rule, Runtime.version().feature(), atStart, carriers);
    if (refused.isPresent()) {
      throw new IllegalArgumentException(refused.get());
    }
    return build(kit, rule);
  }

  /** As {@link #group} without the checks of {@link #refusal}. */
  static CpuGroup build(AffinityKit kit, String rule) {
    CpuGroup probe = kit.group(GLOB).rule(rule).build(); // its CPUs, after any override
    probe.close();
    return kit.group(GLOB).unpinnedMask(probe.pool()).rule(rule).build();
  }

  /**
   * {@return why the carriers rule {@code rule} cannot be applied on JDK {@code jdk}, {@code
   * atStart} or attached to, with {@code carriers} carriers running: one line in the house form}
   */
  static Optional<String> refusal(String rule, int jdk, boolean atStart, long carriers) {
    for (String part : rule.split(",")) {
      int colon = part.indexOf(':');
      if (colon > 0 && REFUSED.contains(part.substring(0, colon).strip())) {
        return Optional.of(
            GLOB
                + ": "
                + part.strip()
                + " (expected: cpus, placement, memory or isolate: one"
                + " carrier per CPU of the group, more carriers on all its CPUs)");
      }
    }
    String refused = GLOB + ": " + rule.strip() + " (expected: ";
    if (jdk < 21) {
      return Optional.of(
          refused + "JDK 21 or later, which has virtual threads; this is JDK " + jdk + ")");
    }
    if (!atStart) {
      return Optional.of(
          refused
              + "the rule at JVM start, -javaagent:affinity-agent.jar=carriers=...: the"
              + " virtual-thread scheduler reads its size once, so a running JVM's carriers stay"
              + " as they are)");
    }
    if (carriers > 0) {
      return Optional.of(
          refused
              + "a rule given before the first virtual thread; the scheduler runs "
              + carriers
              + " carriers already)");
    }
    return Optional.empty();
  }

  /**
   * Sizes the scheduler to {@code group}'s CPUs, unless the user did: then the user's size wins.
   * {@return the line that says which}
   */
  static String size(CpuGroup group) {
    int cpus = group.pool().size();
    String given = System.getProperty(PARALLELISM);
    String more = "; more carriers, to cover blocking, run on CPUs " + group.pool();
    if (given != null) {
      return GLOB
          + ": "
          + PARALLELISM
          + "="
          + given
          + " set by the user wins over the group's "
          + cpus
          + " CPUs "
          + group.pool()
          + ": the first "
          + Math.min(cpus, parse(given))
          + " carriers pinned, one per CPU"
          + more;
    }
    System.setProperty(PARALLELISM, Integer.toString(cpus));
    return GLOB
        + ": "
        + PARALLELISM
        + "="
        + cpus
        + ", one carrier pinned per CPU of "
        + group.pool()
        + more;
  }

  private static int parse(String n) {
    try {
      return Integer.parseInt(n.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * On carrier {@code self} as its {@code run()} starts: gives it the process's mask back, then
   * binds it through a seat of {@code group}. The first carrier says if the scheduler's size is not
   * the one set at start-up (it was made before the agent loaded).
   */
  CpuLease bind(Thread self, CpuGroup group) {
    if (self instanceof ForkJoinWorkerThread w && told.compareAndSet(false, true)) {
      int size = w.getPool().getParallelism();
      String set = System.getProperty(PARALLELISM);
      if (!Integer.toString(size).equals(set)) {
        err.accept(
            GLOB
                + ": the scheduler runs "
                + size
                + " carriers, not "
                + PARALLELISM
                + "="
                + set
                + ": it was made before the agent set its size");
      }
    }
    if (!start.isEmpty()) {
      backend.setAffinity(0, start);
    }
    return group.join(self.getName()).bindOnce();
  }

  /**
   * Says {@code line}, the bind of {@code lease}, on {@code out}; a carrier's that is not pinned
   * (one beyond the group's CPUs, or a failure) on the error output, always.
   */
  void report(CpuLease lease, String line, boolean carrier, Consumer<String> out) {
    (carrier && lease.status() != LeaseStatus.PINNED ? err : out).accept(line);
  }
}
