package io.github.affinitykit.disruptor.demo;

/**
 * What went wrong or was cut short in one measured run, as one line ({@code "burst not drained;
 * paced cut at 120 events"}); empty when nothing did. Both runners note the same checks here.
 *
 * <p>Thread safety: not thread-safe; one run, one thread.
 */
final class Notes {
  private final StringBuilder text = new StringBuilder();

  /** Notes {@code what} unless {@code ok}. */
  void check(boolean ok, String what) {
    if (!ok) {
      text.append(text.length() == 0 ? "" : "; ").append(what);
    }
  }

  @Override
  public String toString() {
    return text.toString();
  }
}
