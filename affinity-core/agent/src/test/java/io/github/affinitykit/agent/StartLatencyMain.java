package io.github.affinitykit.agent;

import java.util.Arrays;

/**
 * How long a thread start takes to reach the first line of its run(), which under the agent comes
 * after its pin: {@code java [-javaagent:...] -cp target/test-classes
 * io.github.affinitykit.agent.StartLatencyMain <threads> <name prefix>} starts that many threads
 * one after another (each joined before the next), discards the first fifth (warm-up), and prints
 * the median, 90th, 99th percentile and the largest, in microseconds. docs/agent.md quotes it.
 */
public final class StartLatencyMain {
  private StartLatencyMain() {}

  public static void main(String[] args) throws InterruptedException {
    int n = Integer.parseInt(args[0]);
    String prefix = args[1];
    long[] micros = new long[n];
    for (int i = 0; i < n; i++) {
      long[] entered = new long[1];
      Thread t = new Thread(() -> entered[0] = System.nanoTime(), prefix + i);
      long start = System.nanoTime();
      t.start();
      t.join();
      micros[i] = (entered[0] - start) / 1000;
    }
    long[] kept = Arrays.copyOfRange(micros, n / 5, n);
    Arrays.sort(kept);
    System.out.printf(
        "%s: %d starts, start to run (us): median %d, p90 %d, p99 %d, max %d%n",
        prefix,
        kept.length,
        kept[kept.length / 2],
        kept[kept.length * 9 / 10],
        kept[kept.length * 99 / 100],
        kept[kept.length - 1]);
  }
}
