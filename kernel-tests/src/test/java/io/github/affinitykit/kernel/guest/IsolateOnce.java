package io.github.affinitykit.kernel.guest;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.isolation.Isolation;

/**
 * A second JVM that tries to isolate a CPU another holds: prints its report's status and refusal,
 * and releases whatever it got.
 *
 * <p>Thread safety: a program.
 */
public final class IsolateOnce {
  private IsolateOnce() {}

  /**
   * Tries once.
   *
   * @param args the CPU list
   */
  public static void main(String[] args) {
    try (Isolation iso = AffinityKit.shared().isolate(CpuSet.parse(args[0]))) {
      System.out.println("status=" + iso.report().status());
      System.out.println("refusal=" + iso.report().refusal());
    }
  }
}
