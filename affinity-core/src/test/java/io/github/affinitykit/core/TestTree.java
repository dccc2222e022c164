package io.github.affinitykit.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes small synthetic sysfs/procfs trees for tests: {@code file("sys/...", "0-3")}. */
public final class TestTree {
  public static final String CPU = "sys/devices/system/cpu";
  public static final String NODE = "sys/devices/system/node";

  private final Path root;

  private TestTree(Path root) {
    this.root = root;
  }

  public static TestTree at(Path root) {
    return new TestTree(root);
  }

  public Path root() {
    return root;
  }

  /** Writes {@code content} plus a newline, as the kernel does. */
  public TestTree file(String relative, String content) {
    try {
      Path p = root.resolve(relative);
      Files.createDirectories(p.getParent());
      Files.writeString(p, content + "\n", StandardCharsets.UTF_8);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Creates a directory: stands for the kernel's symlinks ({@code cpuN/nodeM}) in listings. */
  public TestTree dir(String relative) {
    try {
      Files.createDirectories(root.resolve(relative));
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes one CPU's topology: its package id, core CPUs and package CPUs as lists. */
  public TestTree cpu(int cpu, int packageId, String coreCpus, String packageCpus) {
    String t = CPU + "/cpu" + cpu + "/topology/";
    return file(t + "physical_package_id", Integer.toString(packageId))
        .file(t + "core_id", Integer.toString(cpu))
        .file(t + "core_cpus_list", coreCpus)
        .file(t + "package_cpus_list", packageCpus);
  }

  /** Writes one CPU's per-CPU attribute, e.g. {@code cpu_capacity}. */
  public TestTree cpuFile(int cpu, String name, String content) {
    return file(CPU + "/cpu" + cpu + "/" + name, content);
  }
}
