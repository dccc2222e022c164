/**
 * Affinity Kit's core: the host model ({@code host}), placement ({@code placement}), cross-process
 * reservations ({@code reservation}), the OS backend ({@code os}), observation ({@code observe}),
 * NUMA memory policy ({@code memory}), and the API that joins them (the root package: {@code
 * AffinityKit}, {@code CpuGroup}, {@code PinnedThreadFactory}, {@code CpuLease}, {@code CpuSet}).
 * {@code internal} is plumbing shared by the packages, exported only to affinity-isolation and
 * affinity-host-report (the doctor's whole-host report, the NICs, built on core). Runtime isolation
 * is its own artifact, affinity-isolation, which core finds with {@link java.util.ServiceLoader}
 * ({@code CpuIsolator}); the doctor application is affinity-cli.
 */
// "module": affinity-isolation and affinity-host-report, named by the qualified exports, are built
// after core
@SuppressWarnings("module")
module io.github.affinitykit.core {
  requires com.sun.jna;
  // JDK Flight Recorder events (core.jfr), emitted only where the runtime has the module: on the
  // module path add --add-modules jdk.jfr to record them
  requires static jdk.jfr;

  exports io.github.affinitykit.core;
  exports io.github.affinitykit.core.cpu;
  exports io.github.affinitykit.core.host;
  exports io.github.affinitykit.core.placement;
  exports io.github.affinitykit.core.reservation;
  exports io.github.affinitykit.core.os;
  exports io.github.affinitykit.core.observe;
  exports io.github.affinitykit.core.memory;

  // runtime isolation (affinity-isolation) reads the kernel's files and calls the native layer
  // as core does; nobody else sees either package
  exports io.github.affinitykit.core.internal to
      io.github.affinitykit.isolation,
      io.github.affinitykit.hostreport;
  // the host report shows kernel text (the command line) as core does
  exports io.github.affinitykit.core.internal.text to
      io.github.affinitykit.hostreport;
  exports io.github.affinitykit.core.internal.natives to
      io.github.affinitykit.isolation;

  // the isolator of a kit made without one (affinity-isolation's, when on the path)
  uses io.github.affinitykit.core.CpuIsolator;

  // JNA registers the native layer's direct-mapped natives (JDK 17-21; on 22+ it uses
  // java.lang.foreign: run with --enable-native-access=io.github.affinitykit.core).
  opens io.github.affinitykit.core.internal.natives to
      com.sun.jna;
}
