package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link Step} works on: the kernel files under the root, task affinities, and the CPU sets
 * that explain a task mask the isolation left behind.
 *
 * <p>Thread safety: immutable.
 *
 * @param files the kernel files
 * @param affinity task affinities
 * @param online the online CPUs (a cgroup given back its CPUs resets masks to these on 6.1)
 * @param housekeeping the CPUs left to everything else while isolated
 */
record Kernel(KernelFiles files, TaskAffinity affinity, CpuSet online, CpuSet housekeeping) {
  Kernel {
    Objects.requireNonNull(files, "files");
    Objects.requireNonNull(affinity, "affinity");
    Objects.requireNonNull(online, "online");
    Objects.requireNonNull(housekeeping, "housekeeping");
  }

  /** A task's current mask; empty if it is gone, or is now another task with the same id. */
  Optional<Task> task(int pid, int tid, long startTicks) {
    return Task.read(files.fs(), pid, tid)
        .filter(t -> startTicks < 0 || t.startTicks() < 0 || t.startTicks() == startTicks);
  }
}
