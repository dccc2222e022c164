package io.github.affinitykit.core.reservation;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Child process for the cross-process tests: tries to reserve CPU {@code args[1]} in directory
 * {@code args[0]} ({@code -}: the configured one, {@link CpuReservations#inConfiguredDirectory()})
 * through {@link CpuReservations}, prints {@code READY <status> <holderPid>}, {@code DIR
 * <directory>} and {@code REASON <reason>}, then holds until "exit" or end of stdin, releases and
 * prints {@code RELEASED}. A configuration it refuses is printed as {@code ERROR <message>}.
 */
final class ReservationHolderMain {
  private ReservationHolderMain() {}

  public static void main(String[] args) throws IOException {
    CpuReservations reservations;
    try {
      reservations =
          args[0].equals("-")
              ? CpuReservations.inConfiguredDirectory()
              : CpuReservations.inDirectory(Path.of(args[0]));
    } catch (IllegalArgumentException e) {
      System.out.println("ERROR " + e.getMessage());
      return;
    }
    ReservationResult result = reservations.tryReserve(Integer.parseInt(args[1]));
    System.out.println("READY " + result.status() + " " + result.holderPid());
    System.out.println("DIR " + reservations.directory());
    System.out.println("REASON " + result.reason());
    BufferedReader stdin =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = stdin.readLine(); line != null; line = stdin.readLine()) {
      if (line.equals("exit")) {
        break;
      }
    }
    result.reservation().ifPresent(Reservation::close);
    System.out.println("RELEASED");
  }
}
