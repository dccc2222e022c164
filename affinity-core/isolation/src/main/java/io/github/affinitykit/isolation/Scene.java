package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Everything a plan is made from, read once: the host, its cgroups, every task, the CPUs to
 * isolate, what is left to the rest, and the threads that are to own the CPUs.
 *
 * <p>Thread safety: immutable.
 *
 * @param files the kernel files
 * @param host the host model, probed under the same root
 * @param cgroups where this process sits in the cgroup hierarchies
 * @param tasks every task, as scanned
 * @param cpus the CPUs to isolate
 * @param housekeeping the CPUs left to everything else
 * @param owners the threads that are to have the CPUs (this JVM's pinned threads)
 * @param self this process
 */
record Scene(
    KernelFiles files,
    HostCpus host,
    Cgroups cgroups,
    List<Task> tasks,
    CpuSet cpus,
    CpuSet housekeeping,
    Set<Integer> owners,
    Owner self) {

  Scene {
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(cgroups, "cgroups");
    tasks = List.copyOf(tasks);
    Objects.requireNonNull(cpus, "cpus");
    Objects.requireNonNull(housekeeping, "housekeeping");
    owners = Set.copyOf(owners);
    Objects.requireNonNull(self, "self");
  }

  /** The cgroup this process makes in {@code home}: {@code affinitykit-<id><suffix>}. */
  String kitDir(String home, String suffix) {
    return Writable.kitDir(home, self.id(), suffix);
  }

  /** Whether the isolation may move {@code t}: a task the kernel lets move, not an owner. */
  boolean movable(Task t) {
    return !t.unmovable() && !owners.contains(t.tid());
  }

  /** A task's mask off the isolated CPUs; the housekeeping CPUs if nothing else is left. */
  CpuSet narrowed(CpuSet mask) {
    CpuSet rest = mask.minus(cpus);
    return rest.isEmpty() ? housekeeping : rest;
  }

  /** The number of bits of the machine's CPU masks ({@code nr_cpu_ids}). */
  int nbits() {
    return Math.max(host.topology().possibleCount(), cpus.last() + 1);
  }
}
