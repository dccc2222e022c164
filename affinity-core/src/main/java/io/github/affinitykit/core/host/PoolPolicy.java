package io.github.affinitykit.core.host;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuTopology;
import java.util.Optional;

/**
 * The pool policy: the reachable isolated CPUs if any, else every reachable CPU but the first core
 * (the OS, GC and JIT keep a home); a user override replaces it, checked against what is reachable.
 * See ARCHITECTURE.md, "Pool".
 *
 * <p>Thread safety: stateless.
 */
final class PoolPolicy {
  /** The system property naming the pool. */
  static final String PROPERTY = "affinitykit.pool";

  /** The environment variable naming the pool (the property wins). */
  static final String ENV = "AFFINITYKIT_POOL";

  /** OpenHFT's property: a hex mask of the CPUs to hand out, honoured when neither above is set. */
  static final String OPENHFT = "affinity.reserved";

  /** A user override: the text, where it came from, and whether it is a hex mask (OpenHFT's). */
  record Override(String text, String origin, boolean hexMask) {
    Override(String text, String origin) {
      this(text, origin, false);
    }
  }

  private PoolPolicy() {}

  /** The override configured by system property or environment, if any (blank means none). */
  static Optional<Override> configuredOverride() {
    String p = System.getProperty(PROPERTY);
    if (p != null && !p.isBlank()) {
      return Optional.of(new Override(p, "-D" + PROPERTY));
    }
    String e = System.getenv(ENV);
    if (e != null && !e.isBlank()) {
      return Optional.of(new Override(e, ENV));
    }
    String o = System.getProperty(OPENHFT);
    if (o != null && !o.isBlank()) {
      return Optional.of(
          new Override(o, "-D" + OPENHFT + " (OpenHFT's mask: " + PROPERTY + " unset)", true));
    }
    return Optional.empty();
  }

  /**
   * Reads OpenHFT's hex mask as OpenHFT does: 16 hex digits a 64-bit word, the last digits the
   * lowest CPUs ({@code ff00} = CPUs 8-15); an optional {@code 0x} is allowed.
   */
  static CpuSet hexMask(String text) {
    String hex = text.trim().toLowerCase(java.util.Locale.ROOT);
    hex = hex.startsWith("0x") ? hex.substring(2) : hex;
    if (hex.isEmpty() || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
      String rule = "a hexadecimal CPU mask, lowest CPUs last, e.g. ff00 = 8-15";
      throw new IllegalArgumentException("\"" + text + "\" (expected: " + rule + ")");
    }
    java.util.BitSet bits = new java.util.BitSet();
    for (int i = 0; i < hex.length(); i++) { // digit i from the right holds CPUs 4i to 4i+3
      int digit = Character.digit(hex.charAt(hex.length() - 1 - i), 16);
      for (int b = 0; b < 4; b++) {
        if ((digit & (1 << b)) != 0) {
          bits.set(4 * i + b);
        }
      }
    }
    return CpuSet.of(bits);
  }

  static CpuPool resolve(HostCpus host, Optional<Override> override) {
    if (override.isPresent()) {
      CpuSet cpus;
      try {
        cpus =
            override.get().hexMask()
                ? hexMask(override.get().text())
                : CpuSet.parse(override.get().text().trim(), host.topology().possibleCount());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(override.get().origin() + ": " + e.getMessage(), e);
      }
      return explicit(host, cpus, override.get().origin());
    }
    return byDefault(host);
  }

  static CpuPool explicit(HostCpus host, CpuSet cpus, String origin) {
    CpuSet reachable = host.reachable();
    if (cpus.isEmpty() || !reachable.containsAll(cpus)) {
      throw new IllegalArgumentException(
          String.format(
              "%s: %s (expected: a non-empty subset of the CPUs this process may use: %s%s)",
              origin,
              cpus.isEmpty() ? "\"\"" : cpus,
              reachable,
              cpus.isEmpty() ? "" : "; not usable: " + cpus.minus(reachable)));
    }
    return new CpuPool(
        cpus, reachable.minus(cpus), CpuPool.Source.OVERRIDE, "pool set by " + origin);
  }

  /** The first reachable CPU with its reachable SMT siblings. */
  private static CpuSet firstCore(HostCpus host, CpuSet reachable) {
    int first = reachable.first();
    return host.topology().known().contains(first)
        ? host.topology().cpu(first).core().intersect(reachable)
        : CpuSet.of(first);
  }

  /** The CPUs of {@code pool} whose physical core also holds CPUs outside it. */
  static CpuSet halfInside(CpuTopology topology, CpuSet pool) {
    CpuSet out = CpuSet.empty();
    for (int c = pool.first(); c >= 0; c = pool.next(c + 1)) {
      if (topology.known().contains(c) && !pool.containsAll(topology.cpu(c).core())) {
        out = out.union(CpuSet.of(c));
      }
    }
    return out;
  }

  private static String order(CpuSet exclusive, CpuSet half) {
    if (half.isEmpty()) {
      return "exclusive cores first";
    }
    return half.equals(exclusive)
        ? "every one shares its core with a non-isolated CPU"
        : String.format(
            "whole isolated cores %s first, %s (core shared with non-isolated CPUs) last",
            exclusive.minus(half), half);
  }

  static CpuPool byDefault(HostCpus host) {
    CpuSet reachable = host.reachable();
    CpuSet exclusive = host.exclusive();
    if (!exclusive.isEmpty() && exclusive.equals(reachable)) {
      CpuSet home = firstCore(host, reachable);
      if (!reachable.minus(home).isEmpty()) {
        return new CpuPool(
            reachable.minus(home),
            home,
            CpuPool.Source.ISOLATED,
            String.format(
                "every reachable CPU is isolated (%s): core %s stays with the JVM's own threads,"
                    + " the rest is the pool",
                reachable, home));
      }
    }
    if (!exclusive.isEmpty()) {
      CpuSet halfIsolated = halfInside(host.topology(), exclusive);
      return new CpuPool(
          exclusive,
          reachable.minus(exclusive),
          CpuPool.Source.ISOLATED,
          "isolated CPUs " + exclusive + " are reachable: " + order(exclusive, halfIsolated));
    }
    if (reachable.isEmpty()) {
      return new CpuPool(
          CpuSet.empty(), CpuSet.empty(), CpuPool.Source.EMPTY, "no CPU is reachable");
    }
    CpuSet home = firstCore(host, reachable);
    CpuSet rest = reachable.minus(home);
    if (rest.isEmpty()) {
      return new CpuPool(
          CpuSet.empty(),
          home,
          CpuPool.Source.EMPTY,
          "only one core (" + home + ") is reachable: it stays with the OS, GC and JIT");
    }
    return new CpuPool(
        rest,
        home,
        CpuPool.Source.ALL_BUT_HOUSEKEEPING,
        "no isolated CPUs: every reachable CPU but housekeeping core " + home);
  }
}
