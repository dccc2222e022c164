/**
 * Disruptor consumers on pinned cores with a placement-chosen wait strategy.
 *
 * <p>Skeleton until its issue lands: the module builds against affinity-core and holds no API yet.
 */
package io.github.affinitykit.disruptor;
