package io.github.affinitykit.core.testkit;

import io.github.affinitykit.core.CpuIsolation;
import io.github.affinitykit.core.CpuIsolator;
import io.github.affinitykit.core.cpu.CpuSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link CpuIsolator} that changes nothing: each isolation is active until closed and records the
 * threads let in and out; the adapters' tests check that {@code isolate(true)} reaches it and that
 * their handle is undone when they end. The real one is affinity-isolation's, tested there.
 *
 * <p>Thread safety: safe for concurrent use.
 */
public final class FakeIsolator implements CpuIsolator {
  private final List<Handle> made = new CopyOnWriteArrayList<>();
  private final Optional<String> refusal;

  /** An isolator whose isolations let every thread in. */
  public FakeIsolator() {
    this(Optional.empty());
  }

  private FakeIsolator(Optional<String> refusal) {
    this.refusal = refusal;
  }

  /** Returns an isolator whose isolations refuse every thread with {@code why}. */
  public static FakeIsolator refusing(String why) {
    return new FakeIsolator(Optional.of(why));
  }

  @Override
  public Handle isolate(CpuSet cpus, Set<Integer> owners) {
    Handle h = new Handle(cpus, owners, refusal);
    made.add(h);
    return h;
  }

  /** Returns the isolations made, in order. */
  public List<Handle> made() {
    return List.copyOf(made);
  }

  /** One isolation: active until closed. */
  public static final class Handle implements CpuIsolation {
    private final CpuSet cpus;
    private final Set<Integer> owners;
    private final List<Integer> in = new CopyOnWriteArrayList<>();
    private final List<Integer> out = new CopyOnWriteArrayList<>();
    private final Optional<String> refusal;
    private volatile boolean closed;

    Handle(CpuSet cpus, Set<Integer> owners, Optional<String> refusal) {
      this.cpus = cpus;
      this.owners = Set.copyOf(owners);
      this.refusal = refusal;
    }

    @Override
    public CpuSet cpus() {
      return cpus;
    }

    @Override
    public boolean isActive() {
      return !closed;
    }

    @Override
    public String reason() {
      return closed ? "released" : "isolated by FakeIsolator";
    }

    @Override
    public Optional<String> letIn(int tid) {
      in.add(tid);
      return refusal;
    }

    @Override
    public void letOut(int tid) {
      out.add(tid);
    }

    @Override
    public void close() {
      closed = true;
    }

    /** The owners it was made for. */
    public Set<Integer> owners() {
      return owners;
    }

    /** The threads let in, in order. */
    public List<Integer> letIn() {
      return List.copyOf(in);
    }

    /** The threads let out, in order. */
    public List<Integer> letOut() {
      return List.copyOf(out);
    }
  }
}
