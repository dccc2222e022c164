package io.github.affinitykit.agent;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The application {@link CarriersIT} runs under the agent on JDK 21+ (compiled for 17: virtual
 * threads by reflection). It runs {@code args[0]} virtual threads, each noting the kernel id of its
 * carrier and the CPU it ran on (field 39 of {@code /proc/thread-self/stat}, which a virtual thread
 * reads for its carrier), and prints {@code cpus <list>} and {@code carriers <tids>}. With {@code
 * args[1]} = {@code block}, two virtual threads then block reading a pipe (each from a {@code cat}
 * of its own, a read the JDK marks as blocking, so that the scheduler adds a carrier), and a third,
 * which can only run on a carrier added, prints {@code spare <tid> <mask>}. It prints {@code ready}
 * and waits for a line on stdin; at exit its shutdown hook prints {@code exiting} and waits for
 * another, so that the JVM is still there to be looked at while the agent's hook runs.
 */
public final class CarrierTargetMain {
  private static final BufferedReader IN =
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));

  private CarrierTargetMain() {}

  public static void main(String[] args) throws Exception {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  System.out.println("exiting");
                  line();
                },
                "target-exit"));
    ExecutorService virtual =
        (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    Set<String> cpus = new ConcurrentSkipListSet<>();
    Set<String> carriers = new ConcurrentSkipListSet<>();
    List<Future<?>> runs = new ArrayList<>();
    for (int i = 0; i < Integer.parseInt(args[0]); i++) {
      runs.add(
          virtual.submit(
              () -> {
                spin();
                String[] stat = stat();
                cpus.add(stat[38]);
                carriers.add(stat[0]);
              }));
    }
    for (Future<?> f : runs) {
      f.get();
    }
    System.out.println("cpus " + new TreeSet<>(cpus));
    System.out.println("carriers " + carriers);
    if (args.length > 1 && args[1].equals("block")) {
      block(virtual);
    } else {
      System.out.println("ready");
      line();
    }
  }

  /** Two virtual threads blocked in a read, a third on the carrier the scheduler adds for them. */
  private static void block(ExecutorService virtual) throws Exception {
    List<Process> cats = List.of(cat(), cat());
    CountDownLatch reading = new CountDownLatch(cats.size());
    List<Future<?>> readers = new ArrayList<>();
    for (Process cat : cats) {
      InputStream in = cat.getInputStream();
      readers.add(
          virtual.submit(
              () -> {
                reading.countDown(); // no park from here to the read: the carrier stays this one's
                try {
                  return in.read();
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              }));
    }
    reading.await();
    virtual
        .submit(() -> System.out.println("spare " + stat()[0] + " " + ownMask()))
        .get(); // both carriers are held in their reads until the cats are fed
    System.out.println("ready");
    line();
    for (Process cat : cats) {
      cat.getOutputStream().write('\n');
      cat.getOutputStream().close();
    }
    for (Future<?> f : readers) {
      f.get();
    }
    for (Process cat : cats) {
      cat.waitFor();
    }
  }

  private static Process cat() throws IOException {
    return new ProcessBuilder("cat").start();
  }

  /** A little work, so that the virtual threads spread over the carriers. */
  private static void spin() {
    long x = 0;
    for (int k = 0; k < 200_000; k++) {
      x += k ^ (x >>> 3);
    }
    if (x == 42) {
      System.out.println();
    }
  }

  /** The fields of the calling thread's {@code /proc/thread-self/stat}, the pid first. */
  private static String[] stat() {
    try {
      String stat = Files.readString(Path.of("/proc/thread-self/stat"));
      int paren = stat.lastIndexOf(')');
      String[] rest = stat.substring(paren + 2).split(" ");
      String[] fields = new String[rest.length + 2];
      fields[0] = stat.substring(0, stat.indexOf(' '));
      fields[1] = stat.substring(stat.indexOf('(') + 1, paren);
      System.arraycopy(rest, 0, fields, 2, rest.length);
      return fields;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String ownMask() {
    try {
      for (String l : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
        if (l.startsWith("Cpus_allowed_list:")) {
          return l.substring(l.indexOf(':') + 1).strip();
        }
      }
      return "?";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void line() {
    try {
      IN.readLine();
    } catch (IOException e) {
      System.out.println("stdin: " + e);
    }
  }
}
