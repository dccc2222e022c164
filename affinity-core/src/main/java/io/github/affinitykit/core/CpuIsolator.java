package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import java.util.Set;

/**
 * Runtime isolation as core needs it ({@link AffinityKit#isolate(CpuSet)}, {@link
 * CpuGroupBuilder#isolate(boolean) isolate(true)}). Core implements none: {@code
 * io.github.affinitykit:affinity-isolation} does, found with {@link java.util.ServiceLoader} at a
 * kit's first isolation. Without it every isolation is inactive and says so; nothing throws.
 *
 * <p>Thread safety: implementations are safe for concurrent use by any number of threads.
 */
public interface CpuIsolator {
  /**
   * Makes {@code cpus} exclusive to the threads {@code owners} (and to those let in later), at
   * runtime. Never throws for a missing permission or a kernel refusal: the handle is inactive and
   * its reason says why.
   *
   * @param cpus the CPUs to isolate: online, and not every online CPU
   * @param owners the kernel thread ids of this JVM's threads already pinned there; may be empty
   * @return the handle: active while in force; closing it undoes the isolation
   * @throws IllegalArgumentException if {@code cpus} is empty, not online, or leaves no CPU
   */
  CpuIsolation isolate(CpuSet cpus, Set<Integer> owners);

  /**
   * {@return this isolator moving other tasks through {@code backend}, so that a kit over a fake
   * backend never moves this machine's tasks}
   *
   * @param backend the kit's backend; not null
   */
  default CpuIsolator withBackend(AffinityBackend backend) {
    return this;
  }
}
