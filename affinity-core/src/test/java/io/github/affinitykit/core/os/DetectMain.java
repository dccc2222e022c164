package io.github.affinitykit.core.os;

/** Child process: prints {@code SUPPORTED <bool> <reason>} for {@link AffinityBackend#detect()}. */
final class DetectMain {
  private DetectMain() {}

  public static void main(String[] args) {
    AffinityBackend backend = AffinityBackend.detect();
    System.out.println("SUPPORTED " + backend.isSupported() + " " + backend.reason());
  }
}
