package io.github.affinitykit.core.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The lock directory: {@code -Daffinitykit.lock.dir}, else {@code AFFINITYKIT_LOCK_DIR}, else
 * {@code java.io.tmpdir}; a bad value is named with its origin and the rule.
 */
class LockDirectoryTest {
  private static final Path TMP = Path.of("/var/tmp/fallback");

  @Test
  void shouldPreferThePropertyThenTheVariableThenTheTemporaryDirectory() {
    assertThat(LockDirectory.resolve("/srv/locks", "/run/locks", TMP))
        .isEqualTo(Path.of("/srv/locks"));
    assertThat(LockDirectory.resolve(null, "/run/locks", TMP)).isEqualTo(Path.of("/run/locks"));
    assertThat(LockDirectory.resolve(" ", "/run/locks", TMP)).isEqualTo(Path.of("/run/locks"));
    assertThat(LockDirectory.resolve(null, "", TMP)).isEqualTo(TMP);
    assertThat(LockDirectory.resolve(null, null, TMP)).isEqualTo(TMP);
  }

  @Test
  void shouldNameTheOriginTheValueAndTheRuleOfABadValue() {
    assertThatThrownBy(() -> LockDirectory.resolve("locks", "/run/locks", TMP))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("-Daffinitykit.lock.dir: locks (expected: an absolute path of a directory)");
    assertThatThrownBy(() -> LockDirectory.resolve(null, "run/locks", TMP))
        .hasMessage("AFFINITYKIT_LOCK_DIR: run/locks (expected: an absolute path of a directory)");
    assertThatThrownBy(() -> LockDirectory.resolve("/a\u0000\u001b[2Jb", null, TMP))
        .hasMessage(
            "-Daffinitykit.lock.dir: /a\\u{0000}\\u{001B}[2Jb"
                + " (expected: an absolute path of a directory)");
  }

  @Test
  void shouldReserveInTheDirectoryThePropertyNames() {
    Path dir = Path.of(System.getProperty("java.io.tmpdir"), "lock-dir-property").toAbsolutePath();
    String before = System.getProperty(LockDirectory.PROPERTY);
    System.setProperty(LockDirectory.PROPERTY, dir.toString());
    try {
      assertThat(CpuReservations.inConfiguredDirectory())
          .isSameAs(CpuReservations.inDirectory(dir));
      System.setProperty(LockDirectory.PROPERTY, "relative");
      assertThatThrownBy(CpuReservations::inConfiguredDirectory)
          .hasMessageStartingWith("-Daffinitykit.lock.dir: relative (expected: ");
    } finally {
      if (before == null) {
        System.clearProperty(LockDirectory.PROPERTY);
      } else {
        System.setProperty(LockDirectory.PROPERTY, before);
      }
    }
  }
}
