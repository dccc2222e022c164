/**
 * Disruptor 4 consumers on CPUs planned and pinned by affinity-core, with the wait strategy their
 * placement deserves: {@link io.github.affinitykit.disruptor.PinnedDisruptor} builds and runs it,
 * its threads are one affinity-core {@code CpuGroup} (its {@link
 * io.github.affinitykit.disruptor.PipelineAssignments} says where each runs), {@link
 * io.github.affinitykit.disruptor.WaitChoice} translates core's wait rule into the strategy and
 * says why.
 */
package io.github.affinitykit.disruptor;
