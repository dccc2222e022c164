/**
 * Affinity Kit for the LMAX Disruptor: consumers (and the producer) of a Disruptor as one core
 * {@code CpuGroup}, with the wait strategy their placement deserves ({@code
 * io.github.affinitykit.disruptor}). The demo application is its own artifact, disruptor-demo-app.
 */
module io.github.affinitykit.disruptor {
  requires transitive io.github.affinitykit.core;
  requires transitive io.github.affinitykit.audit;
  requires transitive com.lmax.disruptor;

  exports io.github.affinitykit.disruptor;
}
