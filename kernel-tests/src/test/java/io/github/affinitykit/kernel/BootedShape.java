package io.github.affinitykit.kernel;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A test class about one shape: boots it once before its tests (or skips them all with the reason)
 * and explains every failed assertion with the guest's own output.
 *
 * <p>Thread safety: JUnit runs one instance per class, on one thread.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class BootedShape {
  /** What the shape's boot reported; set before the first test. */
  GuestResult guest;

  @RegisterExtension final ExplainOnFailure explain = new ExplainOnFailure(() -> guest);

  /** The shape this class tests. */
  abstract Shape shape();

  @BeforeAll
  void boot() throws Exception {
    guest = bootGuest();
  }

  /** Boots the shape (or waits for a boot already started elsewhere) and returns its result. */
  GuestResult bootGuest() throws Exception {
    return KernelSuite.boot(shape());
  }
}
