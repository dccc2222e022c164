package io.github.affinitykit.core;

import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;

/**
 * The memory policy named where affinity-numa is not on the class path: the one {@link
 * ServiceLoader} finds reads the name otherwise. Every binding is refused with {@link #MISSING};
 * the pin stands. A seat that pins nothing leaves it alone, as with the artifact.
 *
 * <p>Thread safety: immutable.
 */
final class NoMemoryPolicy implements ThreadMemoryPolicy {
  /** The reason of every binding of a policy named without the artifact. */
  static final String MISSING =
      "NUMA memory policy needs io.github.affinitykit:affinity-numa on the class path";

  private final String spec;

  private NoMemoryPolicy(String spec) {
    this.spec = spec;
  }

  /** The policy affinity-numa reads {@code spec} as; else one whose bindings say it is missing. */
  static ThreadMemoryPolicy find(String spec) {
    Objects.requireNonNull(spec, "spec");
    return ServiceLoader.load(Parser.class, Parser.class.getClassLoader())
        .findFirst()
        .map(p -> p.parse(spec))
        .orElseGet(() -> new NoMemoryPolicy(spec));
  }

  @Override
  public ThreadMemoryPolicy checkNodes(List<Integer> hostNodes) {
    return this;
  }

  @Override
  public Binding apply() {
    return new Refused("memory " + spec + ": FAILED (" + MISSING + ")");
  }

  @Override
  public Binding leftAlone(String why) {
    return new Refused("memory " + spec + ": LEFT_ALONE (" + why + ")");
  }

  @Override
  public String toString() {
    return spec + " (" + MISSING + ")";
  }

  /** A binding that set nothing: the artifact is missing. */
  private record Refused(String line) implements Binding {
    @Override
    public boolean inForce() {
      return false;
    }

    @Override
    public void restore() {}

    @Override
    public String toString() {
      return line;
    }
  }
}
