package io.github.affinitykit.core.testkit;

import io.github.affinitykit.core.host.HostCpus;
import java.nio.file.Path;

/**
 * Small synthetic hosts ({@code FakeHost}'s trees) for the other modules' tests, which run on the
 * module path and cannot see the test classes of core's own package: {@code cpus} CPUs, {@code smt}
 * threads per core (the sibling of cpu c is c + cores), one package, one NUMA node.
 */
public final class FixtureHosts {
  private FixtureHosts() {}

  /** A host under {@code root} with nothing isolated. */
  public static HostCpus plain(Path root, int cpus, int smt) {
    return FakeHost.create(root, cpus, smt).probe();
  }

  /** A host under {@code root} whose CPUs {@code list} are isolated (isolcpus, domain). */
  public static HostCpus isolated(Path root, int cpus, int smt, String list) {
    return FakeHost.create(root, cpus, smt).isolated(list).probe();
  }
}
