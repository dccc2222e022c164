package io.github.affinitykit.kernel;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * Runtime isolation live on a 6.12 kernel: deep in a hierarchy it is a remote partition; Debian
 * builds it without cgroup v1 cpusets ({@code # CONFIG_CPUSETS_V1 is not set}).
 */
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class Isolation612IT extends IsolationShapeIT {
  private static final Shape SHAPE = Shapes.isolation("j-isolation-6.12", "6.12", false);

  @Override
  Shape shape() {
    return SHAPE;
  }

  @Override
  boolean cpusetV1() {
    return false;
  }

  @Override
  String deepMechanism() {
    return "CGROUP_V2_REMOTE_PARTITION";
  }
}
