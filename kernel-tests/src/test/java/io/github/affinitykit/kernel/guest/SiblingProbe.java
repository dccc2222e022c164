package io.github.affinitykit.kernel.guest;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.reservation.Reservation;
import io.github.affinitykit.core.reservation.ReservationResult;
import java.nio.file.Path;

/**
 * A second process beside a JVM holding whole cores, kept small so that it starts quickly under TCG
 * (no host probe, no JSON): tries once to reserve each CPU named ({@code 5}) or a CPU with its
 * sibling, all or none ({@code 4+5}), in the lock directory given, prints {@code PROBE <what>
 * <status> <reason>} for each and frees whatever it got.
 *
 * <p>Thread safety: a program.
 */
public final class SiblingProbe {
  private SiblingProbe() {}

  /**
   * Tries once.
   *
   * @param args the lock directory, then what to reserve: {@code cpu} or {@code cpu+sibling}
   */
  public static void main(String[] args) {
    CpuReservations reservations = CpuReservations.inDirectory(Path.of(args[0]));
    for (int i = 1; i < args.length; i++) {
      String[] cpus = args[i].split("\\+", -1);
      int cpu = Integer.parseInt(cpus[0]);
      CpuSet with = cpus.length > 1 ? CpuSet.parse(cpus[1]) : CpuSet.empty();
      ReservationResult r = reservations.tryReserve(cpu, with);
      System.out.println("PROBE " + args[i] + " " + r.status() + " " + r.reason());
      r.reservation().ifPresent(Reservation::close);
    }
  }
}
