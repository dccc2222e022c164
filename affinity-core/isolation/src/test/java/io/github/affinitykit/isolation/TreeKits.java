package io.github.affinitykit.isolation;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.testkit.FixtureKits;
import java.nio.file.Path;

/** Fixture kits ({@link FixtureKits}) isolating with the real isolator of their tree. */
final class TreeKits {
  private TreeKits() {}

  /**
   * A kit on a fixture host under {@code root} whose isolations change that tree, journaled there.
   */
  static AffinityKit isolating(Path root, int cpus) {
    return FixtureKits.isolating(root, cpus, b -> Isolator.at(root, b, root.resolve("journal")));
  }
}
