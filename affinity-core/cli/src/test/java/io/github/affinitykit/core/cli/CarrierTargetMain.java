package io.github.affinitykit.core.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/**
 * On JDK 21+: starts a virtual thread (so the scheduler has a carrier) that waits; prints {@code
 * ready} once it runs, and exits on a line on stdin. Compiled for 17: the virtual thread is started
 * reflectively.
 */
public final class CarrierTargetMain {
  private CarrierTargetMain() {}

  public static void main(String[] args) throws Exception {
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch quit = new CountDownLatch(1);
    Runnable task =
        () -> {
          running.countDown();
          try {
            quit.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        };
    Thread.class.getMethod("startVirtualThread", Runnable.class).invoke(null, task);
    running.await();
    System.out.println("ready");
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    quit.countDown();
  }
}
