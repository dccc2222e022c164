package io.github.affinitykit.core.testkit;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A backend that acts in the middle of a system call: the action armed by {@link #onPin} runs once,
 * right after the first set of a single-CPU mask that follows, so a race is forced at its one
 * interleaving (the pin races of core's and affinity-watchdog's tests).
 *
 * <p>Thread safety: as the backend it forwards to; arming is atomic.
 */
public final class PinTrapBackend extends ForwardingAffinityBackend {
  private final AtomicReference<Runnable> onPin = new AtomicReference<>();

  /**
   * Forwards to {@code real}.
   *
   * @param real the backend that makes the calls
   */
  public PinTrapBackend(AffinityBackend real) {
    super(real);
  }

  /**
   * Arms {@code action} for the next pin.
   *
   * @param action runs once, after the kernel's set and before the caller goes on
   */
  public void onPin(Runnable action) {
    onPin.set(action);
  }

  @Override
  public void setAffinity(int tid, CpuSet cpus) {
    super.setAffinity(tid, cpus);
    Runnable act = cpus.size() == 1 ? onPin.getAndSet(null) : null;
    if (act != null) {
      act.run();
    }
  }
}
