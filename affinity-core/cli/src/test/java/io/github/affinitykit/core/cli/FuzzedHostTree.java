package io.github.affinitykit.core.cli;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.testkit.Fixtures;
import io.github.affinitykit.core.testkit.HostileFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A private copy of the {@code e5-2620v3-nic} fixture tree (the seed machine with its network
 * devices) whose kernel files a fuzz input replaces. For speed it keeps 6 of the 24 CPUs ({@link
 * #KEPT}: two cores with both threads, the isolated CPU 19 and its non-isolated core-mate 7), with
 * {@code online}, {@code possible} and {@code present} saying so; every other file is the machine's
 * own.
 *
 * <p>Input format (bytes): sections {@code "@@ <file>\n<content>"}, the content running to the next
 * {@code "\n@@ "} or the end; bytes before the first header are the content of {@code
 * sys/devices/system/cpu/online}. {@code <file>} names one of {@link #FILES}; any other name picks
 * one by its hash, so every mutation of a header still lands on a kernel file and never outside the
 * tree. {@link #restore()} puts the fixture's bytes back (or deletes a file it lacked).
 *
 * <p>Hostile files: a content of exactly {@code @fifo} makes the file a FIFO, {@code @zero} a link
 * to {@code /dev/zero}, {@code @big} 1 MiB + 1 bytes of a cpu list (longer than any sysfs
 * attribute, cpu list or task file may be). A header naming {@code cpuN} or {@code nodeN} (up to 9
 * digits) that the tree lacks makes that directory under {@code sys/devices/system/cpu} or {@code
 * node}, holding the content as its {@code online} or {@code cpulist}: indices past the kernel's
 * limits.
 *
 * <p>Thread safety: not thread-safe; one fuzz input at a time.
 */
final class FuzzedHostTree {
  /**
   * The files a fuzz input may replace: every file the probe reads that decides something, then the
   * observation readers' files ({@code /proc/stat}, PSI, one task of process 1), then the network
   * devices' files.
   */
  static final List<String> FILES =
      List.of(
          "sys/devices/system/cpu/online",
          "sys/devices/system/cpu/possible",
          "sys/devices/system/cpu/present",
          "sys/devices/system/cpu/offline",
          "sys/devices/system/cpu/isolated",
          "sys/devices/system/cpu/nohz_full",
          "sys/devices/system/cpu/cpu1/online",
          "sys/devices/system/cpu/cpu0/topology/core_cpus_list",
          "sys/devices/system/cpu/cpu0/topology/core_cpus",
          "sys/devices/system/cpu/cpu12/topology/core_cpus_list",
          "sys/devices/system/cpu/cpu0/topology/package_cpus_list",
          "sys/devices/system/cpu/cpu0/topology/physical_package_id",
          "sys/devices/system/cpu/cpu0/topology/core_id",
          "sys/devices/system/cpu/cpu0/cache/index2/level",
          "sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list",
          "sys/devices/system/cpu/cpu0/cache/index3/type",
          "sys/devices/system/cpu/cpu0/cpu_capacity",
          "sys/devices/system/cpu/cpu1/cpu_capacity",
          "sys/devices/cpu_core/cpus",
          "sys/devices/cpu_atom/cpus",
          "sys/devices/system/node/online",
          "sys/devices/system/node/node0/cpulist",
          "sys/devices/system/node/node0/distance",
          "sys/devices/system/node/node1/cpumap",
          "proc/self/status",
          "proc/thread-self/status",
          "proc/self/cgroup",
          "proc/self/mounts",
          "proc/self/cpuset",
          "proc/cmdline",
          "proc/cpuinfo",
          "proc/irq/default_smp_affinity",
          "proc/irq/8/smp_affinity_list",
          "proc/irq/8/effective_affinity_list",
          "sys/fs/cgroup/cpuset.cpus.effective",
          "sys/fs/cgroup/cpuset.cpus.isolated",
          "sys/fs/cgroup/cpuset.cpus.partition",
          "sys/fs/cgroup/cpuset/cpuset.effective_cpus",
          "sys/fs/cgroup/cpuset/cpuset.cpus",
          "proc/stat",
          "proc/pressure/cpu",
          "proc/1/stat",
          "proc/1/task/1/stat",
          "proc/1/task/1/status",
          "proc/1/task/1/schedstat",
          "proc/1/task/1/sched",
          "proc/interrupts",
          "proc/irq/63/effective_affinity_list",
          "sys/class/net/eth0/device/numa_node",
          "sys/class/net/eth0/device/local_cpulist",
          "sys/class/net/eth0/queues/rx-0/rps_cpus",
          "sys/class/net/eth0/queues/tx-1/xps_cpus",
          "sys/class/net/eth1/device/irq");

  /** The CPUs whose directories the copy keeps. */
  static final String KEPT = "0-1,7,12-13,19";

  private static final byte[] HEADER = "@@ ".getBytes(ISO_8859_1);
  private static final Pattern INDEX_DIRECTORY = Pattern.compile("(cpu|node)[0-9]{1,9}");
  private static final int BIG = (1 << 20) + 1;
  private static FuzzedHostTree shared;

  private final Path root;
  private final Map<String, Optional<byte[]>> originals = new HashMap<>();
  private final List<String> written = new ArrayList<>();
  private final List<Path> made = new ArrayList<>();

  private FuzzedHostTree(Path root) {
    this.root = root;
    for (String file : FILES) {
      Path p = root.resolve(file);
      try {
        Files.createDirectories(p.getParent());
        originals.put(
            file, Files.exists(p) ? Optional.of(Files.readAllBytes(p)) : Optional.empty());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** Returns this JVM's tree: a copy of the fixture under {@code target/fuzz-hosts/<pid>}. */
  static synchronized FuzzedHostTree shared() {
    if (shared == null) {
      Path copy = Paths.get("target", "fuzz-hosts", Long.toString(ProcessHandle.current().pid()));
      Path root = copyTree(Fixtures.root(Fixtures.E5_NIC), copy.toAbsolutePath());
      for (String mask : List.of("online", "possible", "present")) {
        write(root.resolve("sys/devices/system/cpu/" + mask), (KEPT + "\n").getBytes(ISO_8859_1));
      }
      shared = new FuzzedHostTree(root);
    }
    return shared;
  }

  Path root() {
    return root;
  }

  /** Replaces the files the input names with the input's contents. */
  void write(byte[] data) {
    String file = FILES.get(0);
    int start = 0;
    int header = indexOf(data, 0);
    while (true) {
      if (header != 0) { // a header at 0: no content for the first file
        int end = header < 0 ? data.length : header - 1; // the '\n' before a header is not content
        put(file, Arrays.copyOfRange(data, start, Math.max(start, end)));
      }
      if (header < 0) {
        return;
      }
      int nameStart = header + HEADER.length;
      int nameEnd = lineEnd(data, nameStart);
      file = entry(new String(data, nameStart, nameEnd - nameStart, ISO_8859_1));
      start = Math.min(data.length, nameEnd + 1);
      header = indexOf(data, start);
    }
  }

  private static int lineEnd(byte[] data, int from) {
    int i = from;
    while (i < data.length && data[i] != '\n') {
      i++;
    }
    return i;
  }

  /** Puts the fixture's own files back (a FIFO or link is deleted, never written through). */
  void restore() {
    try {
      for (String file : written) {
        Path p = root.resolve(file);
        Files.deleteIfExists(p);
        Optional<byte[]> original = originals.getOrDefault(file, Optional.empty());
        if (original.isPresent()) {
          Files.write(p, original.get());
        }
      }
      written.clear();
      for (Path dir : made) {
        try (Stream<Path> files = Files.list(dir)) {
          for (Path f : (Iterable<Path>) files::iterator) {
            Files.delete(f);
          }
        }
        Files.delete(dir);
      }
      made.clear();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The file a header names: one of {@link #FILES} ({@link #pick}), or the list file of a new
   * {@code cpuN}/{@code nodeN} directory, made now.
   */
  private String entry(String name) {
    String n = name.trim();
    String parent = n.startsWith("cpu") ? "sys/devices/system/cpu/" : "sys/devices/system/node/";
    Path dir = root.resolve(parent + n);
    if (!INDEX_DIRECTORY.matcher(n).matches() || Files.exists(dir)) {
      return pick(n);
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    made.add(dir);
    return parent + n + (n.startsWith("cpu") ? "/online" : "/cpulist");
  }

  private void put(String file, byte[] content) {
    Path p = root.resolve(file);
    written.add(file);
    switch (new String(content, ISO_8859_1)) {
      case "@fifo":
        HostileFiles.fifo(p);
        break;
      case "@zero":
        HostileFiles.link(p, "/dev/zero");
        break;
      case "@big":
        byte[] big = new byte[BIG];
        for (int i = 0; i < BIG; i++) {
          big[i] = (byte) (i % 2 == 0 ? '0' : ',');
        }
        write(p, big);
        break;
      default:
        write(p, content);
    }
  }

  private static void write(Path file, byte[] content) {
    try {
      Files.deleteIfExists(file); // an earlier section's FIFO or link
      Files.write(file, content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String pick(String name) {
    String n = name.trim();
    return FILES.contains(n) ? n : FILES.get(Math.floorMod(n.hashCode(), FILES.size()));
  }

  /** The index of the next header at {@code from} or at a line start after it, or -1. */
  private static int indexOf(byte[] data, int from) {
    for (int i = from; i + HEADER.length <= data.length; i++) {
      if ((i == 0 || data[i - 1] == '\n') && Arrays.equals(data, i, i + 3, HEADER, 0, 3)) {
        return i;
      }
    }
    return -1;
  }

  private static Path copyTree(Path from, Path to) {
    CpuSet kept = CpuSet.parse(KEPT);
    Path cpus = from.resolve("sys/devices/system/cpu");
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        Path dest = to.resolve(from.relativize(p).toString());
        if (p.startsWith(cpus) && p.getNameCount() > cpus.getNameCount()) {
          String name = p.getName(cpus.getNameCount()).toString();
          if (name.matches("cpu[0-9]{1,4}")
              && !kept.contains(Integer.parseInt(name.substring(3)))) {
            continue;
          }
        }
        if (Files.isSymbolicLink(p)) { // sys/class/net: relative links, valid in the copy
          Files.deleteIfExists(dest);
          Files.createSymbolicLink(dest, Files.readSymbolicLink(p));
        } else if (Files.isDirectory(p)) {
          Files.createDirectories(dest);
        } else {
          Files.copy(p, dest, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
      }
      return to;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
