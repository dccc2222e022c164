package io.github.affinitykit.kernel;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/** Runtime isolation live on Debian 12's 6.1 kernel: no remote partitions, so deep is a shield. */
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class Isolation61IT extends IsolationShapeIT {
  private static final Shape SHAPE = Shapes.isolation("i-isolation-6.1", "6.1");

  @Override
  Shape shape() {
    return SHAPE;
  }

  @Override
  boolean cpusetV1() {
    return true;
  }

  @Override
  String deepMechanism() {
    return "AFFINITY_SHIELD";
  }
}
