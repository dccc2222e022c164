/**
 * Disruptor 4 consumers on CPUs planned and pinned by affinity-core, with the wait strategy their
 * placement deserves: {@link io.github.affinitykit.disruptor.PinnedDisruptor} builds and runs it,
 * {@link io.github.affinitykit.disruptor.LayoutPlanner} plans where each thread runs, {@link
 * io.github.affinitykit.disruptor.WaitAdvisor} chooses the strategy and says why ({@link
 * io.github.affinitykit.disruptor.WaitChoice}).
 */
package io.github.affinitykit.disruptor;
