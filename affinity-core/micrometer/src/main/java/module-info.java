/**
 * Affinity Kit's Micrometer binding ({@code io.github.affinitykit.micrometer}): one {@code
 * MeterBinder} for a kit's pinned threads (by status, moves and losses, each thread's CPU time and
 * context switches) and the exclusivity verdicts of its CPUs. Micrometer is the application's: this
 * module requires it, affinity-core never does.
 */
module io.github.affinitykit.micrometer {
  requires transitive io.github.affinitykit.core;
  requires transitive io.github.affinitykit.watchdog;
  requires transitive io.github.affinitykit.audit;
  requires transitive micrometer.core;

  exports io.github.affinitykit.micrometer;
}
