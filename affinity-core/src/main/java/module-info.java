/**
 * Affinity Kit's core: the host model ({@code host}), placement ({@code placement}), cross-process
 * reservations ({@code reservation}), the OS backend ({@code os}), and the API that joins them (the
 * root package: {@code AffinityKit}, {@code CpuGroup}, {@code PinnedThreadFactory}, {@code
 * CpuLease}, {@code CpuSet}). {@code internal} is plumbing shared by the packages, exported only to
 * affinity-isolation, affinity-audit, affinity-host-report, affinity-jitter and affinity-watchdog
 * (its native layer to affinity-numa, the lease's steps {@code internal.lease} to the watchdog).
 * Runtime isolation is its own artifact, affinity-isolation, which core finds with {@link
 * java.util.ServiceLoader} ({@code CpuIsolator}); so are the exclusivity audit, affinity-audit
 * ({@code CpuAuditor}), and NUMA memory policy, affinity-numa ({@code ThreadMemoryPolicy}); the
 * doctor's whole-host report and the NICs are affinity-host-report; the doctor application is
 * affinity-cli; the periodic watchdog is affinity-watchdog; the Flight Recorder events are
 * affinity-jfr ({@code internal.Flight}).
 */
// "module": affinity-isolation, affinity-audit, affinity-host-report, affinity-numa,
// affinity-jitter, affinity-watchdog and affinity-jfr, named by the qualified exports, are built
// after core
@SuppressWarnings("module")
module io.github.affinitykit.core {
  requires com.sun.jna;

  exports io.github.affinitykit.core;
  exports io.github.affinitykit.core.cpu;
  exports io.github.affinitykit.core.host;
  exports io.github.affinitykit.core.placement;
  exports io.github.affinitykit.core.reservation;
  exports io.github.affinitykit.core.os;

  // runtime isolation (affinity-isolation) reads the kernel's files and calls the native layer
  // as core does, the audit (affinity-audit) and the jitter sampler (affinity-jitter) read the
  // kernel's files; nobody else sees either package
  exports io.github.affinitykit.core.internal to
      io.github.affinitykit.isolation,
      io.github.affinitykit.audit,
      io.github.affinitykit.hostreport,
      io.github.affinitykit.jitter,
      io.github.affinitykit.watchdog,
      io.github.affinitykit.jfr;
  // the watchdog re-pins and tells a loss once through the lease's package-private steps
  exports io.github.affinitykit.core.internal.lease to
      io.github.affinitykit.watchdog;
  // the host report shows kernel text (the command line) as core does
  exports io.github.affinitykit.core.internal.text to
      io.github.affinitykit.hostreport;
  // isolation calls the native layer; affinity-numa makes its own memory calls on the technology
  // the layer chose (NativeLayer.isForeign), with its ABI and errno names
  exports io.github.affinitykit.core.internal.natives to
      io.github.affinitykit.isolation,
      io.github.affinitykit.numa;

  // the isolator of a kit made without one (affinity-isolation's, when on the path)
  uses io.github.affinitykit.core.CpuIsolator;
  // the reader of a memory policy's name (affinity-numa's, when on the path)
  uses io.github.affinitykit.core.ThreadMemoryPolicy.Parser;

  // the auditor of every kit (affinity-audit's, when on the path)
  uses io.github.affinitykit.core.CpuAuditor;
  // what is told to Flight Recorder (affinity-jfr's events, when on the path)
  uses io.github.affinitykit.core.internal.Flight;

  // JNA registers the native layer's direct-mapped natives (JDK 17-21; on 22+ it uses
  // java.lang.foreign: run with --enable-native-access=io.github.affinitykit.core).
  opens io.github.affinitykit.core.internal.natives to
      com.sun.jna;
}
