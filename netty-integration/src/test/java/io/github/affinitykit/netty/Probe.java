package io.github.affinitykit.netty;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** What a task saw of the thread it ran on: the kernel's word, from /proc/thread-self. */
record Probe(Thread thread, boolean fastThreadLocal, String cpusAllowed, int lastCpu, int tid) {

  /** Runs on {@code loop} and returns what it saw; waits 20 s at most. */
  static Probe on(EventExecutor loop) throws Exception {
    return loop.submit(Probe::here).get(20, TimeUnit.SECONDS);
  }

  static Probe here() {
    Thread t = Thread.currentThread();
    return new Probe(
        t, t instanceof FastThreadLocalThread, readCpusAllowed(), readLastCpu(), readTid());
  }

  /** The calling thread's Cpus_allowed_list. */
  static String readCpusAllowed() {
    for (String line : read("/proc/thread-self/status").split("\n")) {
      if (line.startsWith("Cpus_allowed_list:")) {
        return line.substring(line.indexOf(':') + 1).strip();
      }
    }
    throw new IllegalStateException("no Cpus_allowed_list in /proc/thread-self/status");
  }

  /** Field 39 of /proc/thread-self/stat: the CPU the thread last ran on (it runs now). */
  static int readLastCpu() {
    String stat = read("/proc/thread-self/stat");
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Integer.parseInt(f[39 - 3]);
  }

  static int readTid() {
    try {
      return Integer.parseInt(
          Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(String file) {
    try {
      return Files.readString(Path.of(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
