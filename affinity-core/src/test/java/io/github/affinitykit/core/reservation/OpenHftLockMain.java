package io.github.affinitykit.core.reservation;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import net.openhft.affinity.AffinityLock;

/**
 * Child process for the cross-process tests: plain OpenHFT. Takes {@code
 * AffinityLock.acquireLock(args[0])} (lock files in {@code java.io.tmpdir}), prints {@code READY
 * <cpuId>} ({@code -1}: no lock), holds until "exit" or end of stdin, releases from the same thread
 * and prints {@code RELEASED}.
 */
final class OpenHftLockMain {
  private OpenHftLockMain() {}

  public static void main(String[] args) throws IOException {
    AffinityLock lock = AffinityLock.acquireLock(Integer.parseInt(args[0]));
    System.out.println("READY " + lock.cpuId());
    BufferedReader stdin =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = stdin.readLine(); line != null; line = stdin.readLine()) {
      if (line.equals("exit")) {
        break;
      }
    }
    lock.release();
    System.out.println("RELEASED");
  }
}
