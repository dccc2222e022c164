package io.github.affinitykit.core;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The isolator of a kit made without one: the one {@link ServiceLoader} finds (affinity-isolation),
 * looked up at the first isolation, else one whose isolations do nothing and say why.
 *
 * <p>Thread safety: immutable.
 */
final class NoIsolation implements CpuIsolator {
  /** The reason of every isolation made without the artifact. */
  static final String MISSING =
      "runtime isolation needs io.github.affinitykit:affinity-isolation on the class path";

  private NoIsolation() {}

  /** The isolator ServiceLoader provides, through {@code backend}; else one that does nothing. */
  static CpuIsolator find(AffinityBackend backend) {
    Objects.requireNonNull(backend, "backend");
    return ServiceLoader.load(CpuIsolator.class, CpuIsolator.class.getClassLoader())
        .findFirst()
        .map(i -> i.withBackend(backend))
        .orElseGet(NoIsolation::new);
  }

  @Override
  public CpuIsolation isolate(CpuSet cpus, Set<Integer> owners) {
    Objects.requireNonNull(cpus, "cpus");
    Objects.requireNonNull(owners, "owners");
    return new Inactive(cpus);
  }

  /** An isolation that did nothing: the artifact is missing. */
  private record Inactive(CpuSet cpus) implements CpuIsolation {
    @Override
    public boolean isActive() {
      return false;
    }

    @Override
    public String reason() {
      return MISSING;
    }

    @Override
    public Optional<String> letIn(int tid) {
      return Optional.empty();
    }

    @Override
    public void letOut(int tid) {}

    @Override
    public void close() {}
  }
}
