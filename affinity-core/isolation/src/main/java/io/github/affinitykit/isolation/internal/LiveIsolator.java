package io.github.affinitykit.isolation.internal;

import io.github.affinitykit.core.CpuIsolator;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.isolation.Isolation;
import io.github.affinitykit.isolation.Isolator;
import java.util.Set;

/**
 * What {@link java.util.ServiceLoader} makes for affinity-core: this machine's isolator ({@link
 * Isolator#live}). A kit asks it {@link #withBackend} its own backend before isolating; {@link
 * #isolate} alone detects one.
 *
 * <p>Thread safety: immutable.
 */
public final class LiveIsolator implements CpuIsolator {
  /** The provider constructor ServiceLoader calls; it reads nothing. */
  public LiveIsolator() {}

  @Override
  public Isolation isolate(CpuSet cpus, Set<Integer> owners) {
    return Isolator.live(AffinityBackend.detect()).isolate(cpus, owners);
  }

  @Override
  public Isolator withBackend(AffinityBackend backend) {
    return Isolator.live(backend);
  }
}
