package io.github.affinitykit.netty;

import io.github.affinitykit.core.PinnedThreadFactory;
import io.github.affinitykit.core.placement.Placement;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.Objects;

/**
 * A pinning {@link java.util.concurrent.ThreadFactory} that keeps Netty's {@code
 * FastThreadLocalThread}s, for Netty 4.1 ({@code new NioEventLoopGroup(4, factory)}), reactor-netty
 * (an event loop group built with it, passed to {@code runOn}) and any executor.
 *
 * <pre>{@code
 * ThreadFactory f = PinnedNettyThreadFactory.create("worker", PinningSpec.defaults(kit));
 * EventLoopGroup workers = new NioEventLoopGroup(4, f); // Netty 4.1
 * }</pre>
 *
 * <p>A thread factory pins threads in the order they are <em>created</em>: Netty creates loop
 * threads lazily, as channels first register, so loop <i>i</i> is not guaranteed CPU <i>i</i> (each
 * thread still gets its own planned CPU). On Netty 4.2 use {@link PinnedIoEventLoopGroup}, which
 * pins by loop index. Explicit per-loop CPUs ({@link PinningSpec#cpus()}) are not supported here.
 *
 * <p>Thread safety: the returned factory is thread-safe.
 */
public final class PinnedNettyThreadFactory {
  private PinnedNettyThreadFactory() {}

  /**
   * Returns a factory of Netty {@code DefaultThreadFactory(name)} threads (non-daemon, as Netty's),
   * each pinned to the next CPU planned from {@code spec}.
   *
   * @throws IllegalArgumentException if {@code spec} names explicit CPUs, or is off
   */
  public static PinnedThreadFactory create(String name, PinningSpec spec) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(spec, "spec");
    if (!spec.cpus().isEmpty() || !spec.enabled()) {
      throw new IllegalArgumentException(
          "spec: " + spec + " (expected: planned CPUs; a thread factory pins in creation order)");
    }
    PinnedThreadFactory.Builder b =
        spec.kit()
            .orElseThrow()
            .threadFactory(name)
            .placements(spec.placements().toArray(Placement[]::new))
            .runOut(spec.runOut())
            .delegate(new DefaultThreadFactory(name));
    spec.pool().ifPresent(b::pool);
    return b.build();
  }
}
