package io.github.affinitykit.kernel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The acceptance shapes. QEMU numbers CPUs thread-first: core {@code k} of the guest holds CPUs
 * {@code 2k, 2k+1}; sockets and NUMA nodes take consecutive ranges.
 *
 * <p>Thread safety: constants.
 */
final class Shapes {
  /** Moves every task that may move to CPUs 0-2; unmovable ones fail quietly. */
  private static final String HOUSEKEEPING_0_2 =
      "for t in /proc/[0-9]*/task/[0-9]*; do taskset -p -c 0-2 ${t##*/} >/dev/null 2>&1; done";

  /** Mounts cgroup v2 on {@code /sys/fs/cgroup} and enables cpuset for the root's children. */
  private static List<String> withCgroup2(String... then) {
    List<String> lines =
        new ArrayList<>(
            List.of(
                "mkdir -p /sys/fs/cgroup",
                "mount -t cgroup2 none /sys/fs/cgroup",
                "echo +cpuset > /sys/fs/cgroup/cgroup.subtree_control"));
    lines.addAll(List.of(then));
    return lines;
  }

  /**
   * A: 2 sockets × 2 cores × 2 threads, 2 nodes; CPUs 3-7 isolated, so CPU 3's sibling 2 is not.
   * Before the JVM starts, every movable task (kswapd, kcompactd, ...) is moved to the housekeeping
   * CPUs, as an isolcpus deployment does (tuned's cpu-partitioning, tuna --isolate); per-CPU kernel
   * threads refuse and stay.
   */
  static final Shape A =
      new Shape(
          "a-isolcpus-smt-numa",
          2,
          2,
          2,
          2,
          2048,
          "isolcpus=managed_irq,domain,3-7 nohz_full=3-7 rcu_nocbs=3-7 irqaffinity=0-2",
          List.of(HOUSEKEEPING_0_2),
          List.of(
              new Shape.Run(
                  "a",
                  List.of(),
                  List.of("doctor", "placements", "wholecore", "audit", "disruptor", "gateway"))),
          // 3 minutes in CI; 7 for a loaded host (the wholecore section's second JVM took 24 s)
          Duration.ofMinutes(7));

  /**
   * A's topology and isolation booted again for the load test alone: its five gateway JVMs take
   * most of a TCG guest's time, so it has a guest and a time limit of its own and the placement,
   * audit and application sections never wait on it.
   */
  static final Shape A_LOAD =
      new Shape(
          "a-loadtest",
          A.sockets(),
          A.cores(),
          A.threads(),
          A.nodes(),
          A.memoryMb(),
          A.cmdline(),
          A.preBoot(),
          List.of(new Shape.Run("a", List.of(), List.of("loadtest"))),
          Duration.ofMinutes(7));

  /**
   * B: cgroup v2 in the guest, 1 socket × 6 cores × 2 threads: an {@code isolated} partition on
   * cores 4-5 (CPUs 8-11) and a {@code root} partition on cores 2-3 (CPUs 4-7), both strict
   * subsets; the JVM runs once in each ({@code echo 0 > cgroup.procs} moves the writing shell,
   * which then execs the JVM; {@code $$} would be init's PID inside a subshell).
   */
  static final Shape B =
      new Shape(
          "b-cgroup-partitions",
          1,
          6,
          2,
          1,
          1024,
          "",
          withCgroup2(
              "mkdir /sys/fs/cgroup/iso /sys/fs/cgroup/rt",
              "echo 8-11 > /sys/fs/cgroup/iso/cpuset.cpus",
              "echo isolated > /sys/fs/cgroup/iso/cpuset.cpus.partition",
              "echo 4-7 > /sys/fs/cgroup/rt/cpuset.cpus",
              "echo root > /sys/fs/cgroup/rt/cpuset.cpus.partition",
              "cat /sys/fs/cgroup/iso/cpuset.cpus.partition /sys/fs/cgroup/rt/cpuset.cpus.partition"),
          List.of(
              new Shape.Run(
                  "isolated",
                  List.of("echo 0 > /sys/fs/cgroup/iso/cgroup.procs"),
                  List.of("doctor", "placements")),
              new Shape.Run(
                  "root",
                  List.of("echo 0 > /sys/fs/cgroup/rt/cgroup.procs"),
                  List.of("doctor", "placements"))),
          Duration.ofMinutes(4));

  /**
   * C: 2 sockets × 2 cores × 2 threads, CPU 5 offline before the JVM starts (sparse online set),
   * and the last pool CPU taken offline while a pinned thread holds it.
   */
  static final Shape C =
      new Shape(
          "c-offline",
          2,
          2,
          2,
          2,
          1024,
          "",
          List.of("echo 0 > /sys/devices/system/cpu/cpu5/online"),
          List.of(new Shape.Run("c", List.of(), List.of("doctor", "offline"))),
          Duration.ofMinutes(4));

  /**
   * D: 4 packages × N cores × 2 threads on 4 nodes; N = {@code -Dkernel.d.cores} (default 8: 64
   * CPUs, 205 s on single-threaded TCG on a quiet 2-CPU host, 2026-11-28, most of it the kernel's
   * boot; 16 gives 128 CPUs, 30 gives 240; TCG's limit is 255).
   */
  static final Shape D =
      new Shape(
          "d-big",
          4,
          Integer.getInteger("kernel.d.cores", 8),
          2,
          4,
          2048,
          "",
          List.of(),
          List.of(new Shape.Run("d", List.of(), List.of("doctor", "placements", "highest"))),
          Duration.ofMinutes(10));

  /**
   * I (Debian's 6.1) and J (6.12): 4 CPUs, no SMT, no isolation at boot; CPU 3 isolated at runtime
   * in each way the host allows, one JVM per way: cgroup v1 cpuset; no cgroup at all (affinity
   * shield); as an unprivileged user (refused, nothing changed); cgroup v2 with the JVM in the root
   * cgroup (partition) and deep in {@code /system/svc} (remote partition on 6.12, the shield on
   * 6.1, which has no {@code cpuset.cpus.exclusive}). Then, with {@code recovery}, a JVM killed
   * with SIGKILL under isolation and the next one's release; without it, two JVMs each pid 1 of its
   * own pid namespace (one holds an isolation, the other's release leaves it alone) and the gateway
   * with {@code --pin isolated} driven out of heap. Both take the same root partition on either
   * kernel: one kernel each keeps the single-threaded lanes short (SingleThreadedShapesIT).
   */
  static Shape isolation(String name, String kernel, boolean recovery) {
    List<Shape.Run> last =
        recovery
            ? List.of(
                new Shape.Run("crash", List.of(), List.of("isolate-crash"), "", true),
                new Shape.Run("recover", List.of(), List.of("isolate-recover")))
            : List.of(
                new Shape.Run("after", List.of(), List.of("isolate-namespaces", "gateway-fatal")));
    List<Shape.Run> runs = new ArrayList<>();
    runs.add(new Shape.Run("ways", List.of(), List.of("isolate-all")));
    runs.add(
        new Shape.Run(
            "refused",
            List.of(
                "mkdir -p /etc",
                "echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> /etc/passwd",
                "echo 'nogroup:x:65534:' >> /etc/group",
                "chmod 666 " + InitScript.RESULT_PORT),
            List.of("isolate-refused"),
            "nobody",
            false));
    runs.addAll(last);
    return new Shape(
        name,
        1,
        4,
        1,
        1,
        1024,
        "",
        List.of(),
        runs,
        // alone on a quiet 2-CPU host: I about 9 minutes, J about 5; side by side
        // (SingleThreadedShapesIT) each has a host CPU if nothing else runs, and with a load
        // average of 7 on the 2 CPUs J (then every section) did not end in 13 minutes: room for
        // that
        Duration.ofMinutes(recovery ? 20 : 25),
        kernel,
        true); // its runs rewrite cpusets and partitions while every vCPU runs
  }

  /**
   * N: 2 sockets × 2 cores, 2 NUMA nodes (node 0 = CPUs 0-1, node 1 = 2-3) and a virtio NIC (its
   * config IRQ and one per queue; QEMU's user network backend has one queue pair, whatever {@code
   * mq=on} asks) behind a PCI expander bridge on node 1, as a two-socket server's NIC sits on one
   * socket's PCIe lanes: the NIC in the host model, memory placed by policy and read back by page,
   * loops placed next to the NIC. Last, {@code jitter --isolated} on CPU 3: with no cgroup mounted
   * its isolated arm takes the affinity shield, which rewrites task masks and IRQ affinities but no
   * cpuset or partition (the static-key flips that keep shapes I and J on single-threaded TCG).
   */
  static final Shape N =
      new Shape(
          "n-numa-nic",
          2,
          2,
          1,
          2,
          // 1.5 GiB a node, room for the initramfs (loaded at the top of memory: node 1) and the
          // JVM; a short node was once blamed for 88% own-node, which was a shared huge page
          // (ShapeNIT)
          3072,
          "",
          List.of(
              "ip link set eth0 up",
              // automatic NUMA balancing unmaps pages to sample them (PROT_NONE), which 6.1's
              // move_pages reports as not present; pinned, bound threads turn it off, as tuned does
              "cat /proc/sys/kernel/numa_balancing",
              "echo 0 > /proc/sys/kernel/numa_balancing",
              // every eth0 IRQ to CPU 2, so that loops avoiding them have CPU 3 on node 1
              "for i in $(ls /sys/class/net/eth0/device/../msi_irqs); do"
                  + " echo 2 > /proc/irq/$i/smp_affinity_list; done"),
          List.of(new Shape.Run("n", List.of(), List.of("doctor", "nic", "numaseed", "jitter"))),
          Duration.ofMinutes(5),
          Shape.DEBIAN_12,
          false,
          List.of(
              "-device",
              "pxb,id=b1,bus=pci.0,bus_nr=4,numa_node=1",
              "-netdev",
              "user,id=n0",
              "-device",
              "virtio-net-pci,netdev=n0,mq=on,vectors=6,bus=b1,addr=0x2"),
          List.of(
              "drivers/virtio/virtio_ring.ko",
              "drivers/virtio/virtio.ko",
              "drivers/virtio/virtio_pci_modern_dev.ko",
              "drivers/virtio/virtio_pci_legacy_dev.ko",
              "drivers/virtio/virtio_pci.ko",
              "net/core/failover.ko",
              "drivers/net/net_failover.ko",
              "drivers/net/virtio_net.ko"),
          List.of());

  /**
   * R: 1 socket × 6 cores, cgroup v2; the JVM in a container {@code runc} starts in cgroup {@code
   * /kubepods/pod1/c1} on CPUs 2-5, two threads pinned to 3 and 4 under a re-planning watchdog,
   * then {@code runc update --cpuset-cpus 2-3 c1}, as the kubelet's CPU manager narrows a running
   * pod's cpuset. Debian's 6.1 resets every task of a cpuset whose CPUs change to the new set: both
   * threads find themselves on 2-3; the one on 3 is re-pinned, the one on 4 re-planned onto 2.
   */
  static final Shape R = runc("r-runc-cpuset", Shape.DEBIAN_12, false);

  /**
   * R on 6.12, which keeps the mask a task asked for where the new cpuset allows it: only the
   * thread on 4 finds itself on 2-3, and is re-planned onto 2. Single-threaded TCG, as every 6.12
   * guest that rewrites a cpuset while its vCPUs run; booted in {@code SingleThreadedShapesIT}'s
   * second lane.
   */
  static final Shape R_612 = runc("r-runc-cpuset-6.12", "6.12", true);

  /** The runc scene of shape R booting {@code kernel}. */
  private static Shape runc(String name, String kernel, boolean singleThreadedTcg) {
    return new Shape(
        name,
        1,
        6,
        1,
        1,
        1024,
        "",
        withCgroup2("runc --version"),
        List.of(
            new Shape.Run(
                "r",
                Container.prefix(
                    "c1", "/kubepods/pod1/c1", "2-5", "runc update --cpuset-cpus 2-3 c1"),
                List.of("container"),
                "",
                false,
                Container.LAUNCHER)),
        Duration.ofMinutes(5),
        kernel,
        singleThreadedTcg,
        List.of(),
        List.of(),
        List.of("runc"));
  }

  private Shapes() {}
}
