package io.github.affinitykit.numa;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.natives.Errno;
import io.github.affinitykit.core.testkit.RecordingAffinityBackend;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fake {@link MemoryBackend} for tests: simulates a memory policy per Java thread ({@link
 * MemoryPolicy#DEFAULT} at first), records every call with the calling thread's simulated CPU mask
 * at that moment (from a {@link RecordingAffinityBackend}, if given: it shows whether the policy
 * was set after the pin), and can be told to fail the next {@code set}. It follows the kernel's
 * rule: a policy naming a node the simulated host lacks fails with {@code EINVAL}.
 *
 * <p>Thread safety: safe for concurrent use; {@link #calls()} is a consistent snapshot.
 */
public final class RecordingMemoryBackend implements MemoryBackend {
  /**
   * One recorded call.
   *
   * @param operation {@code "read"} or {@code "set"}
   * @param thread the calling thread's name
   * @param policy the policy set, or the one read
   * @param mask the calling thread's simulated CPU mask then; empty without an affinity backend
   */
  public record Call(String operation, String thread, MemoryPolicy policy, CpuSet mask) {}

  private final List<Integer> nodes;
  private final Optional<RecordingAffinityBackend> affinity;
  private final Map<Thread, MemoryPolicy> policies = new ConcurrentHashMap<>();
  private final List<Call> calls = new ArrayList<>();
  private final AtomicInteger failNextSet = new AtomicInteger();

  /**
   * A fake host with {@code nodes}, recording the masks {@code affinity} simulates.
   *
   * @param affinity the affinity fake whose masks each call records
   * @param nodes the host's nodes
   */
  public RecordingMemoryBackend(RecordingAffinityBackend affinity, int... nodes) {
    this.affinity = Optional.of(affinity);
    this.nodes = CpuSet.of(nodes).stream().boxed().toList();
  }

  @Override
  public boolean isSupported() {
    return true;
  }

  @Override
  public String reason() {
    return "recording fake: simulated per-thread policies on nodes " + nodes;
  }

  @Override
  public Reading read() {
    MemoryPolicy p = policyOf(Thread.currentThread());
    record("read", p);
    return new Reading(p, 0);
  }

  @Override
  public int set(MemoryPolicy policy) {
    record("set", policy);
    int injected = failNextSet.getAndSet(0);
    if (injected != 0) {
      return injected;
    }
    if (!nodes.containsAll(policy.nodes())) {
      return Errno.EINVAL;
    }
    policies.put(Thread.currentThread(), policy);
    return 0;
  }

  private void record(String operation, MemoryPolicy policy) {
    CpuSet mask = affinity.map(a -> a.maskOf(a.currentThreadId())).orElse(CpuSet.empty());
    synchronized (calls) {
      calls.add(new Call(operation, Thread.currentThread().getName(), policy, mask));
    }
  }

  /**
   * Makes the next {@code set} (from any thread) fail with {@code errno}, changing nothing.
   *
   * @param errno the errno, as {@code 1} ({@code EPERM})
   */
  public void failNextSet(int errno) {
    failNextSet.set(errno);
  }

  /**
   * Returns a thread's simulated policy.
   *
   * @param thread the thread
   * @return its policy; {@link MemoryPolicy#DEFAULT} if never set
   */
  public MemoryPolicy policyOf(Thread thread) {
    return policies.getOrDefault(thread, MemoryPolicy.DEFAULT);
  }

  /** Returns the calls recorded so far, oldest first (a snapshot). */
  public List<Call> calls() {
    synchronized (calls) {
      return List.copyOf(calls);
    }
  }
}
