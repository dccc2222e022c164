/**
 * Affinity Kit's placement by measured latency ({@code io.github.affinitykit.latency}): the
 * core-to-core handoff latency matrix of a set of CPUs ({@code LatencyMeter}: a cache line
 * ping-ponged between two threads pinned to each pair), cached per host by topology, kernel and CPU
 * model in a directory only its user can write ({@code LatencyCache}), and the choice of the CPUs
 * with the lowest handoff latency for a group's members ({@code LatencyPlacement}). Measuring keeps
 * two CPUs busy per pair and pinning users need none of it, so it is an artifact of its own, built
 * on affinity-core's public API alone.
 */
module io.github.affinitykit.latency {
  requires transitive io.github.affinitykit.core;

  exports io.github.affinitykit.latency;
}
