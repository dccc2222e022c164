package io.github.affinitykit.kernel;

import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Makes a red guest test explain itself: appends the output of the guest section the test last read
 * and the guest console's tail to any assertion failure.
 *
 * <p>Thread safety: JUnit calls it on the test's thread.
 */
final class ExplainOnFailure implements TestExecutionExceptionHandler {
  private final Supplier<GuestResult> guest;

  ExplainOnFailure(Supplier<GuestResult> guest) {
    this.guest = guest;
  }

  @Override
  public void handleTestExecutionException(ExtensionContext context, Throwable t) throws Throwable {
    GuestResult g = guest.get();
    if (g == null
        || !(t instanceof AssertionError)
        || t.getMessage() == null
        || t.getMessage().contains("--- guest console (tail) ---")) {
      throw t;
    }
    AssertionError e = new AssertionError(t.getMessage() + g.explainLastSection(), t);
    throw e;
  }
}
