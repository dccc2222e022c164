package io.github.affinitykit.netty;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The transport a server uses, the one asked for, and why: for {@link Transport#AUTO}, which
 * transports were skipped and the reason each could not load.
 *
 * <p>Thread safety: immutable.
 *
 * @param requested what was asked for
 * @param transport what is used: never {@link Transport#AUTO}
 * @param reason one line: {@code io_uring available}, or {@code io_uring: <cause>; epoll available}
 */
public record TransportChoice(Transport requested, Transport transport, String reason) {
  /**
   * Validates.
   *
   * @param requested what was asked for; not null
   * @param transport what is used; not null, never {@link Transport#AUTO}
   * @param reason one line saying why; not null
   */
  public TransportChoice {
    Objects.requireNonNull(requested, "requested");
    Objects.requireNonNull(transport, "transport");
    Objects.requireNonNull(reason, "reason");
    if (transport == Transport.AUTO) {
      throw new IllegalArgumentException("transport: AUTO (expected: a concrete transport)");
    }
  }

  /**
   * Chooses the transport for {@code requested}: AUTO takes io_uring, else epoll, else NIO, and
   * says why each better one was skipped.
   *
   * @param requested a concrete transport, or {@link Transport#AUTO}; not null
   * @return the choice; for a concrete transport, that transport
   * @throws IllegalStateException if a concrete transport was asked for and cannot load, with the
   *     reason
   */
  public static TransportChoice choose(Transport requested) {
    return choose(requested, Transport::unavailability);
  }

  static TransportChoice choose(
      Transport requested, Function<Transport, Optional<String>> unavailability) {
    Objects.requireNonNull(requested, "requested");
    if (requested != Transport.AUTO) {
      Optional<String> why = unavailability.apply(requested);
      if (why.isPresent()) {
        throw new IllegalStateException(
            "transport: " + requested + " (expected: one that loads here; " + why.get() + ")");
      }
      return new TransportChoice(requested, requested, requested + " requested and available");
    }
    StringBuilder skipped = new StringBuilder();
    for (Transport t : new Transport[] {Transport.IO_URING, Transport.EPOLL}) {
      Optional<String> why = unavailability.apply(t);
      if (why.isEmpty()) {
        return new TransportChoice(requested, t, skipped + t.name() + " available");
      }
      skipped.append(t.name()).append(" unavailable: ").append(why.get()).append("; ");
    }
    return new TransportChoice(requested, Transport.NIO, skipped + "falling back to NIO");
  }
}
