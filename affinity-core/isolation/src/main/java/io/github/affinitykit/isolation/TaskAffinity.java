package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.os.AffinityException;
import java.util.Objects;

/**
 * Reads and sets any task's CPU affinity: {@code sched_getaffinity}/{@code sched_setaffinity}
 * through the backend in production; tests give one that edits a fixture tree's {@code status}
 * files.
 *
 * <p>Thread safety: implementations are safe for concurrent use.
 */
interface TaskAffinity {
  /** Whether tasks can be moved at all here. */
  boolean supported();

  /**
   * Sets task {@code tid}'s affinity.
   *
   * @throws AffinityException with the errno when the kernel refuses (ESRCH: the task ended)
   */
  void set(int tid, CpuSet cpus);

  /** Through {@code backend}. */
  static TaskAffinity of(AffinityBackend backend) {
    Objects.requireNonNull(backend, "backend");
    return new TaskAffinity() {
      @Override
      public boolean supported() {
        return backend.isSupported();
      }

      @Override
      public void set(int tid, CpuSet cpus) {
        backend.setAffinity(tid, cpus);
      }
    };
  }
}
