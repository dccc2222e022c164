package io.github.affinitykit.netty;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.placement.SpinAdvice;
import io.github.affinitykit.core.placement.SpinRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides how each worker loop waits: the requested {@link IdlePolicy}, what the transport can do,
 * and for {@link IdlePolicy#AUTO} the placement rule ({@link SpinRule}) after checking that the
 * loop is pinned and that no other loop of the server is placed on its core.
 *
 * <p>Thread safety: stateless.
 */
final class IdleDecider {
  private IdleDecider() {}

  /**
   * One decision per loop of {@code workers}; {@code everyone} holds every loop of the server
   * (boss, workers, business), {@code auditedExclusive} ⊆ {@code audited} an audit's verdicts.
   */
  static List<LoopIdle> decide(
      IdlePolicy requested,
      Transport transport,
      HostCpus host,
      List<LoopAssignment> workers,
      List<LoopAssignment> everyone,
      CpuSet auditedExclusive,
      CpuSet audited) {
    Optional<String> unsupported = transport.idleUnsupported();
    List<LoopIdle> out = new ArrayList<>();
    for (LoopAssignment w : workers) {
      LoopIdle placed = placement(w, everyone, host, auditedExclusive, audited);
      IdlePolicy wanted = requested == IdlePolicy.AUTO ? placed.mode() : requested;
      String why =
          requested == IdlePolicy.AUTO
              ? placed.reason()
              : requested == IdlePolicy.BLOCK
                  ? "Netty's default"
                  : "as asked; the placement rule alone would choose "
                      + placed.mode()
                      + ": "
                      + placed.reason();
      if (wanted != IdlePolicy.BLOCK && unsupported.isPresent()) {
        out.add(
            loop(
                w,
                requested,
                IdlePolicy.BLOCK,
                false,
                wanted + " wanted, but " + unsupported.get()));
      } else {
        out.add(loop(w, requested, wanted, true, why));
      }
    }
    return out;
  }

  private static LoopIdle placement(
      LoopAssignment w,
      List<LoopAssignment> everyone,
      HostCpus host,
      CpuSet auditedExclusive,
      CpuSet audited) {
    if (w.cpu() < 0 || w.status() != LeaseStatus.PINNED) {
      return loop(
          w,
          IdlePolicy.AUTO,
          IdlePolicy.BLOCK,
          true,
          "loop "
              + w.status()
              + " ("
              + w.reason()
              + "): spinning would take a CPU other threads need");
    }
    CpuSet core = host.topology().cpu(w.cpu()).core();
    for (LoopAssignment o : everyone) {
      boolean self = o.group().equals(w.group()) && o.index() == w.index();
      if (!self && o.cpu() >= 0 && core.contains(o.cpu())) {
        return loop(
            w,
            IdlePolicy.AUTO,
            IdlePolicy.BLOCK,
            true,
            "core " + core + " also runs " + o.group() + "-" + o.index());
      }
    }
    SpinAdvice a = SpinRule.judge(host, w.cpu(), auditedExclusive, audited);
    return loop(
        w,
        IdlePolicy.AUTO,
        a.spin() ? IdlePolicy.SPIN_THEN_BLOCK : IdlePolicy.BLOCK,
        true,
        a.reason());
  }

  private static LoopIdle loop(
      LoopAssignment w, IdlePolicy requested, IdlePolicy mode, boolean honoured, String reason) {
    return new LoopIdle(w.group(), w.index(), w.cpu(), requested, mode, honoured, reason);
  }
}
