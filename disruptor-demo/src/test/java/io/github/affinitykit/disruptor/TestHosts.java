package io.github.affinitykit.disruptor;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.testkit.Fixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Host models for tests: the seed machine's fixture and small synthetic sysfs trees. */
final class TestHosts {
  private TestHosts() {}

  /** The 2-socket E5-2620 v3 (siblings n and n±12) with isolcpus=19-23: hyper-threads only. */
  static HostCpus e5() {
    return HostCpus.probe(Fixtures.root(Fixtures.E5));
  }

  /**
   * Writes a one-package host of {@code cpus} CPUs, {@code smt} threads per core (the sibling of c
   * is c + cores), with {@code isolated} in isolcpus, and probes it.
   */
  static HostCpus synthetic(Path root, int cpus, int smt, String isolated) {
    int cores = cpus / smt;
    CpuSet all = CpuSet.range(0, cpus - 1);
    String cpu = "sys/devices/system/cpu/";
    for (String f : new String[] {"possible", "present", "online"}) {
      write(root, cpu + f, all.toString());
    }
    write(root, "sys/devices/system/node/node0/cpulist", all.toString());
    write(root, "sys/devices/system/node/node0/distance", "10");
    for (int c = 0; c < cpus; c++) {
      int core = c % cores;
      CpuSet siblings = CpuSet.empty();
      for (int s = 0; s < smt; s++) {
        siblings = siblings.union(CpuSet.of(core + s * cores));
      }
      String t = cpu + "cpu" + c + "/topology/";
      write(root, t + "physical_package_id", "0");
      write(root, t + "core_id", String.valueOf(core));
      write(root, t + "core_cpus_list", siblings.toString());
      write(root, t + "package_cpus_list", all.toString());
    }
    CpuSet iso = CpuSet.parse(isolated);
    write(root, cpu + "isolated", isolated);
    write(root, "proc/cmdline", isolated.isEmpty() ? "ro" : "ro isolcpus=" + isolated);
    write(root, "proc/self/status", "Cpus_allowed_list:\t" + all.minus(iso) + "\n");
    return HostCpus.probe(root);
  }

  private static void write(Path root, String relative, String text) {
    try {
      Path p = root.resolve(relative);
      Files.createDirectories(p.getParent());
      Files.writeString(p, text + "\n", StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
