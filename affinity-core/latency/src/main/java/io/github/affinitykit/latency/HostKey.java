package io.github.affinitykit.latency;

import io.github.affinitykit.core.cpu.CpuTopology;
import io.github.affinitykit.core.host.HostCpus;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * What a latency matrix depends on: the CPU topology (packages, cores and their SMT siblings, L3
 * groups, NUMA nodes), the kernel release and the CPU model. A matrix cached under one key is stale
 * for another: a new kernel, a changed BIOS setting that regroups cores, or another machine behind
 * the same home directory re-measures.
 *
 * <p>Thread safety: immutable.
 *
 * @param topology the topology's groups as text
 * @param kernel the kernel release ({@code uname -r}), {@code "unknown"} if unreadable
 * @param model the first CPU model name of {@code /proc/cpuinfo}, {@code "unknown"} if none
 */
public record HostKey(String topology, String kernel, String model) {
  private static final int MAX_READ = 64 * 1024;

  /**
   * Checks the parts.
   *
   * @param topology the topology's groups as text; not null
   * @param kernel the kernel release; not null
   * @param model the CPU model name; not null
   */
  public HostKey {
    Objects.requireNonNull(topology, "topology");
    Objects.requireNonNull(kernel, "kernel");
    Objects.requireNonNull(model, "model");
  }

  /**
   * Returns the key of a host snapshot: its topology, and the kernel release ({@code
   * proc/sys/kernel/osrelease}) and CPU model ({@code proc/cpuinfo}) under its {@link
   * HostCpus#root()}.
   *
   * @param host the host, as {@code kit.host()}
   * @return its key; the parts that cannot be read are {@code "unknown"}
   */
  public static HostKey of(HostCpus host) {
    CpuTopology t = host.topology();
    String topology =
        "cpus "
            + t.known()
            + "; packages "
            + t.packages()
            + "; cores "
            + t.cores()
            + "; l3 "
            + t.l3Groups()
            + "; nodes "
            + t.numaNodes();
    Path root = host.root();
    String kernel = firstLine(read(root.resolve("proc/sys/kernel/osrelease")));
    String model = "unknown";
    for (String line : read(root.resolve("proc/cpuinfo")).split("\n", -1)) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equals("model name")) {
        model = line.substring(colon + 1).trim();
        break;
      }
    }
    return new HostKey(topology, kernel.isEmpty() ? "unknown" : kernel, model);
  }

  /** {@return the key as 16 hex digits: the start of a SHA-256 of its parts} */
  public String id() {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest((topology + "\n" + kernel + "\n" + model).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256: missing (expected: in every Java runtime)", e);
    }
  }

  private static String read(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return new String(in.readNBytes(MAX_READ), StandardCharsets.UTF_8);
    } catch (IOException | UnsupportedOperationException e) {
      return "";
    }
  }

  private static String firstLine(String text) {
    int end = text.indexOf('\n');
    return (end < 0 ? text : text.substring(0, end)).trim();
  }
}
