/**
 * Vert.x 5's event loops pinned through its thread SPI: {@link
 * io.github.affinitykit.vertx.PinnedVertxThreadFactory}, a {@code VertxThreadFactory} that {@code
 * ServiceLoader} finds on the class path. This artifact is an automatic module ({@code
 * io.github.affinitykit.vertx}): the SPI's return type lives in a package Vert.x does not export.
 */
package io.github.affinitykit.vertx;
