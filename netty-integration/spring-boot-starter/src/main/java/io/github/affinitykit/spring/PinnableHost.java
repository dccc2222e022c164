package io.github.affinitykit.spring;

import io.github.affinitykit.core.AffinityKit;
import java.util.function.Consumer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches where this host can pin threads ({@link AffinityKit#shared()}'s backend); elsewhere logs
 * one line saying why, and the auto-configuration adds nothing: the server runs on Reactor Netty's
 * own loops. Evaluated once, when the configuration is parsed.
 *
 * <p>Thread safety: stateless.
 */
final class PinnableHost implements ConfigurationCondition {
  private static final Log LOG = LogFactory.getLog(AffinityNettyAutoConfiguration.class);

  @Override
  public ConfigurationPhase getConfigurationPhase() {
    return ConfigurationPhase.PARSE_CONFIGURATION;
  }

  @Override
  public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
    var backend = AffinityKit.shared().backend();
    return decide(backend.isSupported(), backend.reason(), LOG::warn);
  }

  /** Whether to configure pinning; if not, one line to {@code log}. */
  static boolean decide(boolean supported, String reason, Consumer<String> log) {
    if (!supported) {
      log.accept(
          "affinitykit: this host cannot pin threads ("
              + reason
              + "): the Reactor Netty server runs on its own loops, unpinned");
    }
    return supported;
  }
}
