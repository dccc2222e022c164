package io.github.affinitykit.kernel.guest;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.isolation.Isolation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A JVM that tries to isolate CPUs once: prints its report's status and refusal and releases
 * whatever it got; or, given a file, holds the isolation: writes its status, pid (as its own pid
 * namespace numbers it) and journal there, then waits to be killed.
 *
 * <p>Thread safety: a program.
 */
public final class IsolateOnce {
  private IsolateOnce() {}

  /**
   * Tries once.
   *
   * @param args the CPU list; optionally the file to report to, then hold
   * @throws Exception if the report cannot be written or the wait is interrupted
   */
  public static void main(String[] args) throws Exception {
    try (Isolation iso = Isolation.of(AffinityKit.shared().isolate(CpuSet.parse(args[0])))) {
      String report =
          "status="
              + iso.report().status()
              + "\npid="
              + ProcessHandle.current().pid()
              + "\njournal="
              + iso.report().journal()
              + "\nrefusal="
              + iso.report().refusal()
              + "\n";
      System.out.print(report);
      if (args.length > 1) {
        Path ready = Path.of(args[1]);
        Path tmp = Files.writeString(ready.resolveSibling(ready.getFileName() + ".tmp"), report);
        Files.move(tmp, ready, StandardCopyOption.ATOMIC_MOVE);
        new CountDownLatch(1).await(10, TimeUnit.MINUTES); // SIGKILL comes first
      }
    }
  }
}
