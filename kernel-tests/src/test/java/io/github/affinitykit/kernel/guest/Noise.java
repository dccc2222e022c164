package io.github.affinitykit.kernel.guest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A busy process unrelated to the JVM: a shell loop that counts (busy) and sleeps 2 ms, started
 * unpinned, optionally moved to another cgroup; killed on close.
 *
 * <p>Thread safety: not thread-safe; owned by one section.
 */
final class Noise implements AutoCloseable {
  private static final String LOOP =
      "while :; do i=0; while [ $i -lt 300 ]; do i=$((i+1)); done; usleep 2000; done";
  private final Process process;

  private Noise(Process process) {
    this.process = process;
  }

  /** Starts it; {@code cgroup} (a cgroup v2 directory) receives it if not empty. */
  static Noise start(String cgroup) throws IOException {
    Process p =
        new ProcessBuilder(List.of("sh", "-c", LOOP))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!cgroup.isEmpty()) {
      Files.writeString(Path.of(cgroup, "cgroup.procs"), Long.toString(p.pid()));
    }
    return new Noise(p);
  }

  long pid() {
    return process.pid();
  }

  /** Its user + system time so far, ns (stat fields 14 and 15, 10 ms ticks). */
  long cpuNs() throws IOException {
    String[] f = stat();
    return (Long.parseLong(f[14 - 3]) + Long.parseLong(f[15 - 3])) * 10_000_000L;
  }

  /** The CPU it ran on last (stat field 39). */
  int lastCpu() throws IOException {
    return Integer.parseInt(stat()[39 - 3]);
  }

  private String[] stat() throws IOException {
    String s = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
    return s.substring(s.lastIndexOf(')') + 2).split(" ");
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
