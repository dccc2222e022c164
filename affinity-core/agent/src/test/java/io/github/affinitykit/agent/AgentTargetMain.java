package io.github.affinitykit.agent;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The application {@link AgentIT} runs under the agent, which knows nothing of it: it prints each
 * thread's kernel id ({@code tid <name> <tid>}) and, for the threads it starts, the mask each sees
 * as its first line of work ({@code first <name> <mask>}); {@code worker-b} is a subclass whose
 * run() does not call super.run(); {@code plain-d} is renamed {@code worker-d} by main; {@code
 * worker-a}, once running, starts {@code kid-a}, which no rule names. It prints {@code ready} and
 * exits on a line on stdin.
 */
public final class AgentTargetMain {
  private AgentTargetMain() {}

  public static void main(String[] args) throws Exception {
    CountDownLatch quit = new CountDownLatch(1);
    System.out.println("tid main " + tid());
    Thread a = new Thread(() -> work("worker-a", quit), "worker-a");
    Thread b =
        new Thread("worker-b") {
          @Override
          public void run() {
            work("worker-b", quit);
          }
        };
    Thread c = new Thread(() -> work("plain-c", quit), "plain-c");
    CountDownLatch started = new CountDownLatch(1);
    Thread d =
        new Thread(
            () -> {
              try {
                System.out.println("tid plain-d " + tid());
              } catch (IOException e) {
                System.out.println("tid plain-d " + e);
              }
              started.countDown();
              await(quit);
            },
            "plain-d");
    for (Thread t : new Thread[] {a, b, c, d}) {
      t.setDaemon(true);
      t.start();
    }
    started.await();
    d.setName("worker-d"); // by another thread: /proc never sees it
    System.out.println("ready");
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    quit.countDown();
  }

  private static void work(String name, CountDownLatch quit) {
    try {
      System.out.println("first " + name + " " + mask());
      System.out.println("tid " + name + " " + tid());
    } catch (IOException e) {
      System.out.println("first " + name + " " + e);
    }
    if (name.equals("worker-a")) {
      Thread kid = new Thread(() -> work("kid-a", quit), "kid-a");
      kid.setDaemon(true);
      kid.start();
    }
    await(quit);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String tid() throws IOException {
    return Path.of("/proc/thread-self").toRealPath().getFileName().toString();
  }

  private static String mask() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
      if (line.startsWith("Cpus_allowed_list:")) {
        return line.substring(line.indexOf(':') + 1).trim();
      }
    }
    return "?";
  }
}
