/**
 * Disruptor 4 consumers on CPUs planned and pinned by affinity-core, with the wait strategy their
 * placement deserves: {@link io.github.affinitykit.disruptor.PinnedDisruptor} builds and runs it,
 * its threads are one affinity-core {@code CpuGroup} (its {@link
 * io.github.affinitykit.disruptor.PipelineAssignments} says where each runs), {@link
 * io.github.affinitykit.disruptor.WaitAdvisor} chooses the strategy and says why ({@link
 * io.github.affinitykit.disruptor.WaitChoice}).
 */
package io.github.affinitykit.disruptor;
