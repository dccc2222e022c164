package io.github.affinitykit.core.cli;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.CpuPool;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.jitter.CpuJitter;
import io.github.affinitykit.jitter.Gap;
import io.github.affinitykit.jitter.JitterReport;
import io.github.affinitykit.jitter.JitterSampler;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code doctor --jitter}: samples the pool's CPUs, one sampling thread pinned per CPU, and prints
 * each CPU's worst gaps with their causes beside the audit's verdict over the same window.
 *
 * <p>Thread safety: stateless; {@link #sample} blocks for the window.
 */
final class DoctorJitter {
  /** The worst gaps printed per CPU. */
  static final int WORST = 3;

  /** The sampling's cost, in a sentence. */
  static final String COST =
      "one spinning thread pinned per CPU: each is a busy CPU for the whole window";

  private DoctorJitter() {}

  /** Samples {@code pool}'s CPUs for {@code window}; empty for an empty pool. */
  static Optional<JitterReport> sample(
      HostCpus host,
      AffinityBackend backend,
      CpuPool pool,
      Duration window,
      CpuReservations reservations) {
    if (pool.isEmpty()) {
      return Optional.empty();
    }
    AffinityKit kit = AffinityKit.create(host, backend, reservations, pool);
    return Optional.of(JitterSampler.on(kit, pool.cpus()).window(window).largest(WORST).run());
  }

  /** The doctor's section for {@code report}, or why there is none. */
  static String text(Optional<JitterReport> report) {
    StringBuilder out = new StringBuilder("\nJitter     ");
    if (report.isEmpty()) {
      return out.append("skipped (empty pool)\n").toString();
    }
    JitterReport r = report.get();
    out.append(JitterTable.length(r.window().toNanos()))
        .append(" over pool ")
        .append(CpuSet.of(r.cpus().stream().mapToInt(CpuJitter::cpu).toArray()))
        .append(", gaps of ")
        .append(JitterTable.length(r.floorNs()))
        .append(" or more between two clock reads (cost: ")
        .append(COST)
        .append(")\n");
    for (CpuJitter c : r.cpus()) {
      ArmRow row = ArmRow.of(c);
      out.append(
          String.format(
              Locale.ROOT,
              "  cpu %d %s, audit %s: %,d gaps, max %s, p99.99 %s, %.4f%% of the window lost%n",
              c.cpu(),
              c.status(),
              ArmRow.verdict(c),
              row.gaps(),
              JitterTable.amount(row.maxGap()),
              JitterTable.amount(row.p9999()),
              100 * c.lostShare()));
      for (Gap g : c.largest()) {
        out.append(
            String.format(
                Locale.ROOT,
                "    %s at %s: %s (counters read %s apart)%n",
                JitterTable.length(g.durationNs()),
                g.start(),
                g.attribution().cause(),
                JitterTable.length(g.attribution().bracketNs())));
      }
    }
    r.notes().forEach(n -> out.append("  note: ").append(n).append('\n'));
    return out.toString();
  }
}
