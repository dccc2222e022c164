/**
 * Affinity Kit for Agrona: an {@code IdleStrategy} chosen by placement ({@code
 * io.github.affinitykit.agrona}), busy-spinning only on a CPU proven exclusive and backing off
 * elsewhere, with the reason; for Aeron's media driver agents and any Agrona {@code AgentRunner}.
 * Agrona is an automatic module ({@code org.agrona.core}).
 */
module io.github.affinitykit.agrona {
  requires transitive io.github.affinitykit.core;
  requires transitive org.agrona.core;

  exports io.github.affinitykit.agrona;
}
