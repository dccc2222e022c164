/**
 * Affinity Kit for the LMAX Disruptor: consumers (and the producer) of a Disruptor as one core
 * {@code CpuGroup}, with the wait strategy their placement deserves ({@code
 * io.github.affinitykit.disruptor}); the demo application ({@code demo}) and its optional tools
 * (HdrHistogram, Agrona) are not needed by library users.
 */
module io.github.affinitykit.disruptor {
  requires transitive io.github.affinitykit.core;
  requires transitive com.lmax.disruptor;
  requires static info.picocli;
  requires static HdrHistogram;
  requires static org.agrona.core;

  exports io.github.affinitykit.disruptor;
}
