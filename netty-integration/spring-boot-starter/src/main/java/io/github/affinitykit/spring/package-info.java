/**
 * Affinity Kit's Spring Boot starter: {@link
 * io.github.affinitykit.spring.AffinityNettyAutoConfiguration} pins a WebFlux application's Reactor
 * Netty server loops from {@code affinitykit.netty.*}, binds the kit's meters to Micrometer and
 * serves the report at {@code /actuator/affinity}.
 */
package io.github.affinitykit.spring;
