package io.github.affinitykit.kernel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A guest machine as data: its CPU topology, NUMA nodes, memory, kernel command line, the shell
 * steps init runs before the JVM (cgroups, offlining CPUs), and the guest program runs to make.
 * Adding a shape is a few lines in {@link Shapes}.
 *
 * <p>Thread safety: immutable.
 *
 * @param name short name, used for files under {@code target/kernel}
 * @param sockets packages
 * @param cores cores per package
 * @param threads hardware threads per core
 * @param nodes NUMA nodes (CPUs split evenly, in id order)
 * @param memoryMb guest memory, split evenly over the nodes
 * @param cmdline extra kernel command line ({@code isolcpus=...})
 * @param preBoot shell lines init runs after mounting proc, sys and tmp, before the first run
 * @param runs the guest program's runs, in order
 * @param timeout the whole boot-to-poweroff budget; the guest is killed after it
 * @param kernel the kernel version to boot ({@code 6.1}, {@code 6.12}): the newest {@code
 *     /boot/vmlinuz-<kernel>.*}
 * @param singleThreadedTcg whether QEMU runs every vCPU on one host thread even for a small guest:
 *     for guests whose runs rewrite cpusets and partitions while every vCPU runs, which flips the
 *     kernel's static keys (code patched through int3 breakpoints); multi-threaded TCG executed a
 *     half-patched site once (a 6.12 guest, "Oops: int3" in __alloc_pages, 2026-11-25)
 * @param devices extra QEMU arguments for devices (a PCI expander bridge on a node, a NIC behind
 *     it)
 * @param modules kernel modules the devices need, as paths under the booted kernel's {@code
 *     /lib/modules/<release>/kernel}, in load order: copied into the initramfs, loaded by init
 *     before the pre-boot steps
 * @param programs host programs the guest runs besides busybox and the JVM ({@code runc}), by name:
 *     found on the host's {@code PATH} or in its {@code sbin} directories when the image is built,
 *     copied into the initramfs at the same path with the shared libraries {@code ldd} lists; the
 *     shape is skipped, naming the program, when one is missing
 */
public record Shape(
    String name,
    int sockets,
    int cores,
    int threads,
    int nodes,
    int memoryMb,
    String cmdline,
    List<String> preBoot,
    List<Run> runs,
    Duration timeout,
    String kernel,
    boolean singleThreadedTcg,
    List<String> devices,
    List<String> modules,
    List<String> programs) {

  /** Debian 12's own kernel, which the first shapes were written for. */
  static final String DEBIAN_12 = "6.1";

  /**
   * One start of the guest program.
   *
   * @param label names the run's result
   * @param shellPrefix shell lines run in a subshell just before {@code exec java} (e.g. joining a
   *     cgroup), so they apply to the JVM only
   * @param sections the guest program's sections (see {@code GuestMain})
   * @param user the user the JVM runs as ({@code su}); empty for root
   * @param background whether init starts it and goes on to the next run at once (a JVM the next
   *     run kills)
   * @param launcher how the JVM starts: empty to {@code exec} it in the run's subshell; else a
   *     command (a shell function the prefix defines) given the JVM's command line as arguments,
   *     which starts it its own way (in a container) and whose exit status is the run's
   */
  public record Run(
      String label,
      List<String> shellPrefix,
      List<String> sections,
      String user,
      boolean background,
      String launcher) {
    /** Validates and copies. */
    public Run {
      Objects.requireNonNull(label, "label");
      shellPrefix = List.copyOf(shellPrefix);
      sections = List.copyOf(sections);
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(launcher, "launcher");
    }

    /** A run whose JVM is exec'd in the run's subshell. */
    public Run(
        String label,
        List<String> shellPrefix,
        List<String> sections,
        String user,
        boolean background) {
      this(label, shellPrefix, sections, user, background, "");
    }

    /** A run as root, in the foreground. */
    public Run(String label, List<String> shellPrefix, List<String> sections) {
      this(label, shellPrefix, sections, "", false);
    }
  }

  /** A shape booting Debian 12's 6.1 kernel, on multi-threaded TCG up to 16 vCPUs. */
  public Shape(
      String name,
      int sockets,
      int cores,
      int threads,
      int nodes,
      int memoryMb,
      String cmdline,
      List<String> preBoot,
      List<Run> runs,
      Duration timeout) {
    this(
        name, sockets, cores, threads, nodes, memoryMb, cmdline, preBoot, runs, timeout, DEBIAN_12,
        false);
  }

  /** A shape without extra devices, kernel modules or host programs. */
  public Shape(
      String name,
      int sockets,
      int cores,
      int threads,
      int nodes,
      int memoryMb,
      String cmdline,
      List<String> preBoot,
      List<Run> runs,
      Duration timeout,
      String kernel,
      boolean singleThreadedTcg) {
    this(
        name,
        sockets,
        cores,
        threads,
        nodes,
        memoryMb,
        cmdline,
        preBoot,
        runs,
        timeout,
        kernel,
        singleThreadedTcg,
        List.of(),
        List.of(),
        List.of());
  }

  /** Validates and copies. */
  public Shape {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kernel, "kernel");
    Objects.requireNonNull(cmdline, "cmdline");
    Objects.requireNonNull(timeout, "timeout");
    preBoot = List.copyOf(preBoot);
    runs = List.copyOf(runs);
    devices = List.copyOf(devices);
    modules = List.copyOf(modules);
    programs = List.copyOf(programs);
    if (sockets < 1 || cores < 1 || threads < 1 || nodes < 1 || cpus() % nodes != 0) {
      throw new IllegalArgumentException(
          "shape "
              + name
              + ": "
              + sockets
              + "x"
              + cores
              + "x"
              + threads
              + " on "
              + nodes
              + " nodes (expected: positive counts, CPUs divisible by nodes)");
    }
  }

  /** Returns the number of logical CPUs. */
  public int cpus() {
    return sockets * cores * threads;
  }

  /**
   * Above this many vCPUs a guest runs on single-threaded TCG. Multi-threaded TCG gives every vCPU
   * a host thread; with 64+ of them on 2 host CPUs, bring-up (vCPUs spinning on each other) took
   * from 79 s to over 6 minutes for the same 128-CPU guest here. One thread that round-robins the
   * vCPUs (halted ones skipped) booted and ran it in 237 s, and 64 CPUs in 40 s (one run each).
   */
  static final int MULTI_THREADED_TCG_MAX_CPUS = 16;

  /** Returns QEMU's arguments for this shape's machine (not the kernel or image). */
  public List<String> qemuMachineArgs() {
    List<String> a = new ArrayList<>();
    boolean single = singleThreadedTcg || cpus() > MULTI_THREADED_TCG_MAX_CPUS;
    String accel = single ? "tcg,thread=single" : "tcg";
    a.addAll(List.of("-machine", "pc", "-accel", accel, "-cpu", "Skylake-Server-v1"));
    a.addAll(
        List.of(
            "-smp",
            cpus() + ",sockets=" + sockets + ",cores=" + cores + ",threads=" + threads,
            "-m",
            memoryMb + "M"));
    int perNode = cpus() / nodes;
    for (int n = 0; n < nodes; n++) {
      a.addAll(
          List.of(
              "-object",
              "memory-backend-ram,id=m" + n + ",size=" + (memoryMb / nodes) + "M",
              "-numa",
              "node,cpus="
                  + (n * perNode)
                  + "-"
                  + ((n + 1) * perNode - 1)
                  + ",nodeid="
                  + n
                  + ",memdev=m"
                  + n));
    }
    a.addAll(devices);
    return a;
  }
}
