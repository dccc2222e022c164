/**
 * Affinity Kit's runtime isolation ({@code io.github.affinitykit.isolation}): CPUs made exclusive
 * to a JVM's pinned threads while it runs, and undone. It changes the whole machine and needs root,
 * so it is an artifact of its own; affinity-core finds it through {@link
 * io.github.affinitykit.core.CpuIsolator} ({@code isolate(true)} on a group, {@code
 * AffinityKit.isolate}), and the applications (the doctor's {@code isolate}/{@code release}, the
 * gateway, the load test) use it directly.
 */
module io.github.affinitykit.isolation {
  requires transitive io.github.affinitykit.core;
  // the kernel command line (what boot-time isolation is in force)
  requires io.github.affinitykit.hostreport;

  exports io.github.affinitykit.isolation;

  provides io.github.affinitykit.core.CpuIsolator with
      io.github.affinitykit.isolation.internal.LiveIsolator;
}
