package io.github.affinitykit.core.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The JVM {@link AttachIT} attaches to, started without the agent: three named threads ({@code
 * feed-1}, {@code feed-2}, {@code plain-x}) print {@code tid <name> <tid>} and wait; then {@code
 * ready}; it exits on a line on stdin.
 */
public final class AttachTargetMain {
  private AttachTargetMain() {}

  public static void main(String[] args) throws Exception {
    CountDownLatch quit = new CountDownLatch(1);
    String[] names = {"feed-1", "feed-2", "plain-x"};
    CountDownLatch started = new CountDownLatch(names.length);
    for (String name : names) {
      Thread t =
          new Thread(
              () -> {
                System.out.println("tid " + name + " " + tid());
                started.countDown();
                try {
                  quit.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              name);
      t.setDaemon(true);
      t.start();
    }
    started.await();
    System.out.println("ready");
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    quit.countDown();
  }

  private static String tid() {
    try {
      return Path.of("/proc/thread-self").toRealPath().getFileName().toString();
    } catch (IOException e) {
      return "?";
    }
  }
}
