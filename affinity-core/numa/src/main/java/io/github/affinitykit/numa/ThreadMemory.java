package io.github.affinitykit.numa;

import io.github.affinitykit.core.ThreadMemoryPolicy;
import io.github.affinitykit.core.internal.natives.Errno;
import io.github.affinitykit.numa.MemoryPolicyStatus.State;

/**
 * The memory policy of one binding (core's {@link ThreadMemoryPolicy.Binding}): set by the pinned
 * thread itself right after its affinity (the policy is per thread), its previous policy read first
 * and set again when the binding ends, on that thread. A refusal leaves the pin standing and says
 * why.
 *
 * <p>Thread safety: {@link #apply} and {@link #restore} act on the calling thread; {@link
 * #status()} may be read from any thread.
 */
final class ThreadMemory implements ThreadMemoryPolicy.Binding {
  private final MemoryBackend backend;
  private final MemoryPolicy asked;
  private final MemoryPolicy previous;
  private final Thread owner;
  private volatile MemoryPolicyStatus status;

  private ThreadMemory(
      MemoryBackend backend, MemoryPolicy asked, MemoryPolicy previous, MemoryPolicyStatus s) {
    this.backend = backend;
    this.asked = asked;
    this.previous = previous;
    this.owner = Thread.currentThread();
    this.status = s;
  }

  /** A binding whose thread's policy is left as it is, saying {@code why}. */
  static ThreadMemory leftAlone(MemoryPolicy asked, String why) {
    return new ThreadMemory(
        null, asked, asked, new MemoryPolicyStatus(asked, State.LEFT_ALONE, 0, why));
  }

  /**
   * Sets {@code asked} on the calling thread through {@code backend} (nothing for DEFAULT),
   * remembering its policy.
   */
  static ThreadMemory apply(MemoryBackend backend, MemoryPolicy asked) {
    if (asked.equals(MemoryPolicy.DEFAULT)) {
      return leftAlone(asked, "the thread's policy is left as it is");
    }
    MemoryBackend.Reading before;
    int errno;
    try { // a backend may be the user's: one that throws refuses the policy, never the pin
      before = backend.read();
      errno = before.errno() != 0 ? 0 : backend.set(asked);
    } catch (RuntimeException e) {
      return new ThreadMemory(
          null, asked, asked, new MemoryPolicyStatus(asked, State.FAILED, 0, e.toString()));
    }
    if (before.errno() != 0) {
      return refused(asked, "get_mempolicy", before.errno(), backend);
    }
    if (errno != 0) {
      return refused(asked, "set_mempolicy", errno, backend);
    }
    MemoryPolicy was = before.policy();
    return new ThreadMemory(
        backend, asked, was, new MemoryPolicyStatus(asked, State.IN_FORCE, 0, "was " + was));
  }

  private static ThreadMemory refused(
      MemoryPolicy asked, String call, int errno, MemoryBackend backend) {
    String why = errno < 0 ? backend.reason() : call + ": " + Errno.describe(errno);
    return new ThreadMemory(
        null, asked, asked, new MemoryPolicyStatus(asked, State.FAILED, errno, why));
  }

  /**
   * Sets the thread's previous policy again, if this binding set one and the thread still has it:
   * on the bound thread only ({@code set_mempolicy} changes the caller's); from another thread, or
   * once the policy was changed since the bind (leases closed out of order, the application's own
   * call), the policy stays and the status says so.
   */
  @Override
  public void restore() {
    try {
      restoreOnOwner();
    } catch (RuntimeException e) { // a backend may be the user's: the lease still closes
      status = new MemoryPolicyStatus(asked, State.NOT_RESTORED, 0, "the backend failed: " + e);
    }
  }

  private void restoreOnOwner() {
    if (status.state() != State.IN_FORCE) {
      return;
    }
    if (Thread.currentThread() != owner) {
      status =
          new MemoryPolicyStatus(
              asked,
              State.NOT_RESTORED,
              0,
              "ended from thread "
                  + Thread.currentThread().getName()
                  + ", not "
                  + owner.getName()
                  + ": a thread's policy is set by that thread only");
      return;
    }
    MemoryBackend.Reading now = backend.read();
    if (now.errno() == 0 && !now.policy().equals(asked)) { // leases closed out of order, or the
      status = // application set its own since: restoring would undo that
          new MemoryPolicyStatus(
              asked,
              State.NOT_RESTORED,
              0,
              "changed since the bind (now " + now.policy() + "): left as it is");
      return;
    }
    int errno = backend.set(previous);
    status =
        errno == 0
            ? new MemoryPolicyStatus(asked, State.RESTORED, 0, "back to " + previous)
            : new MemoryPolicyStatus(
                asked,
                State.NOT_RESTORED,
                errno,
                "set_mempolicy " + previous + ": " + Errno.describe(errno));
  }

  MemoryPolicyStatus status() {
    return status;
  }

  @Override
  public boolean inForce() {
    return status.inForce();
  }

  /** {@return {@code memory bind 0: IN_FORCE (was default)}; empty where DEFAULT was asked} */
  @Override
  public String toString() {
    MemoryPolicyStatus s = status;
    return s.asked().equals(MemoryPolicy.DEFAULT) ? "" : s.toString();
  }
}
