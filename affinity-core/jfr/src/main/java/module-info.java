/**
 * Affinity Kit's Flight Recorder events ({@code io.github.affinitykit.jfr}): a thread pinned and
 * released, a lease found moved or its reservation lost, an isolation or a confinement made and
 * undone, committed when a recording enabled them (category {@code Affinity Kit}, enabled by name:
 * {@code io.github.affinitykit.*}). A pin needs none of it, so it is an artifact of its own:
 * affinity-core finds it through its {@code internal.Flight} and {@link java.util.ServiceLoader},
 * and a user who records adds it to the path and writes no code. It exports nothing.
 */
module io.github.affinitykit.jfr {
  requires io.github.affinitykit.core;
  // the events' API: resolved with this module, so a module-path program records without
  // --add-modules jdk.jfr
  requires jdk.jfr;

  provides io.github.affinitykit.core.internal.Flight with
      io.github.affinitykit.jfr.JfrFlight;
}
