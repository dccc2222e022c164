/**
 * Affinity Kit's core: the host model ({@code host}), placement ({@code placement}), cross-process
 * reservations ({@code reservation}), the OS backend ({@code os}), observation ({@code observe}),
 * runtime isolation ({@code isolation}), and the API that joins them (the root package: {@code
 * AffinityKit}, {@code CpuGroup}, {@code PinnedThreadFactory}, {@code CpuLease}, {@code CpuSet}).
 * {@code internal} is plumbing shared by the packages and exported to nobody; {@code cli} is the
 * doctor application.
 */
module io.github.affinitykit.core {
  // OpenHFT's jar names no module: its name comes from the file name (affinity-<version>.jar).
  requires transitive affinity;
  requires com.sun.jna;
  requires static info.picocli;
  requires static com.fasterxml.jackson.databind;

  exports io.github.affinitykit.core;
  exports io.github.affinitykit.core.host;
  exports io.github.affinitykit.core.placement;
  exports io.github.affinitykit.core.reservation;
  exports io.github.affinitykit.core.os;
  exports io.github.affinitykit.core.observe;
  exports io.github.affinitykit.core.isolation;
  // The doctor application, and command-line support for this project's other applications.
  exports io.github.affinitykit.core.cli;

  opens io.github.affinitykit.core.os to
      com.sun.jna;
  opens io.github.affinitykit.core.reservation to
      com.sun.jna;
  opens io.github.affinitykit.core.cli to
      info.picocli;
}
