package io.github.affinitykit.core;

import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.core.reservation.Reservation;
import io.github.affinitykit.core.reservation.ReservationResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.openhft.affinity.AffinityLock;

/**
 * Child process of {@code reservation.ReservationChurnIT}: {@code <ak|openhft> <lockDir> <cpu>
 * <out>}. Prints {@code READY} once loaded, waits for {@code go <millis>}, then for that long
 * acquires the CPU (Affinity Kit's {@link CpuReservations}, or OpenHFT's {@code AffinityLock},
 * whose directory is {@code java.io.tmpdir}), holds it 0-20 ms and releases it, in a loop. Each
 * hold is written to {@code out} as {@code <start> <end>} in {@link System#nanoTime()}
 * (CLOCK_MONOTONIC on Linux, one clock for every process), start taken after the lock, end before
 * the release. Prints {@code DONE <holds> <attempts> <lost>}.
 */
public final class ChurnHolderMain {
  private ChurnHolderMain() {}

  public static void main(String[] args) throws IOException {
    boolean ours = args[0].equals("ak");
    CpuReservations reservations = CpuReservations.inDirectory(Path.of(args[1]));
    int cpu = Integer.parseInt(args[2]);
    if (!ours) {
      AffinityLock.acquireLock(cpu).release(); // class initialisation before the clock starts
    }
    System.out.println("READY");
    BufferedReader stdin =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String go = stdin.readLine();
    long millis = Long.parseLong(go.substring("go ".length()));
    SplittableRandom random = new SplittableRandom(ProcessHandle.current().pid());
    List<String> holds = new ArrayList<>();
    long attempts = 0;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (System.nanoTime() < deadline) {
      attempts++;
      long[] hold = ours ? holdOurs(reservations, cpu, random) : holdOpenHft(cpu, random);
      if (hold.length == 2) {
        holds.add(hold[0] + " " + hold[1]);
      } else {
        LockSupport.parkNanos(random.nextLong(TimeUnit.MILLISECONDS.toNanos(2)));
      }
    }
    Files.write(Path.of(args[3]), holds);
    System.out.println("DONE " + holds.size() + " " + attempts + " " + reservations.lostCount());
  }

  private static long[] holdOurs(CpuReservations reservations, int cpu, SplittableRandom random) {
    ReservationResult r = reservations.tryReserve(cpu);
    if (!r.isReserved()) {
      return new long[0];
    }
    Reservation held = r.orElseThrow();
    try {
      long start = System.nanoTime();
      LockSupport.parkNanos(random.nextLong(TimeUnit.MILLISECONDS.toNanos(20) + 1));
      return new long[] {start, System.nanoTime()};
    } finally {
      held.close();
    }
  }

  private static long[] holdOpenHft(int cpu, SplittableRandom random) {
    AffinityLock lock = AffinityLock.acquireLock(cpu);
    try {
      if (lock.cpuId() != cpu) {
        return new long[0];
      }
      long start = System.nanoTime();
      LockSupport.parkNanos(random.nextLong(TimeUnit.MILLISECONDS.toNanos(20) + 1));
      return new long[] {start, System.nanoTime()};
    } finally {
      lock.release();
    }
  }
}
