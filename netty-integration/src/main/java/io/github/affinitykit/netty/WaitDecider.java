package io.github.affinitykit.netty;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.placement.WaitAdvice;
import io.github.affinitykit.core.placement.WaitRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides how each worker loop waits: the requested {@link WaitPolicy}, what the transport can do,
 * and for {@link WaitPolicy#AUTO} the placement rule ({@link WaitRule}) after checking that the
 * loop is pinned and that no other loop of the server is placed on its core.
 *
 * <p>Thread safety: stateless.
 */
final class WaitDecider {
  private WaitDecider() {}

  /**
   * One decision per loop of {@code workers}; {@code everyone} holds every loop of the server
   * (boss, workers, business), {@code auditedExclusive} ⊆ {@code audited} an audit's verdicts.
   */
  static List<LoopWait> decide(
      WaitPolicy requested,
      Transport transport,
      HostCpus host,
      List<LoopAssignment> workers,
      List<LoopAssignment> everyone,
      CpuSet auditedExclusive,
      CpuSet audited) {
    Optional<String> unsupported = transport.idleUnsupported();
    List<LoopWait> out = new ArrayList<>();
    for (LoopAssignment w : workers) {
      LoopWait placed = placement(w, everyone, host, auditedExclusive, audited);
      WaitPolicy wanted = requested == WaitPolicy.AUTO ? placed.mode() : requested;
      String why =
          requested == WaitPolicy.AUTO
              ? placed.reason()
              : requested == WaitPolicy.BLOCK
                  ? "Netty's default"
                  : "as asked; the placement rule alone would choose "
                      + placed.mode()
                      + ": "
                      + placed.reason();
      if (wanted != WaitPolicy.BLOCK && unsupported.isPresent()) {
        out.add(
            loop(
                w,
                requested,
                WaitPolicy.BLOCK,
                false,
                wanted + " wanted, but " + unsupported.get()));
      } else {
        out.add(loop(w, requested, wanted, true, why));
      }
    }
    return out;
  }

  private static LoopWait placement(
      LoopAssignment w,
      List<LoopAssignment> everyone,
      HostCpus host,
      CpuSet auditedExclusive,
      CpuSet audited) {
    if (w.cpu() < 0 || w.status() != LeaseStatus.PINNED) {
      return loop(
          w,
          WaitPolicy.AUTO,
          WaitPolicy.BLOCK,
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
            WaitPolicy.AUTO,
            WaitPolicy.BLOCK,
            true,
            "core " + core + " also runs " + o.group() + "-" + o.index());
      }
    }
    WaitAdvice a = WaitRule.judge(host, w.cpu(), auditedExclusive, audited);
    return loop(
        w,
        WaitPolicy.AUTO,
        a.spin() ? WaitPolicy.SPIN_THEN_BLOCK : WaitPolicy.BLOCK,
        true,
        a.reason());
  }

  private static LoopWait loop(
      LoopAssignment w, WaitPolicy requested, WaitPolicy mode, boolean honoured, String reason) {
    return new LoopWait(w.group(), w.index(), w.cpu(), requested, mode, honoured, reason);
  }
}
