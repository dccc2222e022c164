package io.github.affinitykit.core.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.ChildJvm;
import io.github.affinitykit.core.ChildJvm.Launch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM reserves in the directory {@code -Daffinitykit.lock.dir} names, else {@code
 * AFFINITYKIT_LOCK_DIR}, else {@code java.io.tmpdir}, and refuses a bad value naming it.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(60)
class LockDirectoryIT {
  @TempDir Path tmp;

  private String[] reserveIn(Map<String, String> env, List<String> jvmArgs) throws Exception {
    Launch launch = new Launch(List.of(), System.getProperty("java.class.path"), env);
    List<String> jvm = new ArrayList<>(jvmArgs);
    jvm.add("-Djava.io.tmpdir=" + Files.createDirectories(tmp.resolve("tmpdir")));
    try (ChildJvm child = ChildJvm.start(tmp, launch, jvm, ReservationHolderMain.class, "-", "1")) {
      String[] status = child.awaitLine("");
      if (status[0].equals("ERROR")) {
        return status;
      }
      String[] dir = child.awaitLine("DIR");
      assertThat(child.exit()).isZero();
      return new String[] {status[1], dir[0]};
    }
  }

  private Path dir(String name) throws IOException {
    return Files.createDirectories(tmp.resolve(name)).toRealPath();
  }

  @Test
  void shouldReserveWhereThePropertyElseTheVariableElseTheTemporaryDirectorySays()
      throws Exception {
    Path byProperty = dir("by-property");
    Path byEnv = dir("by-env");
    assertThat(
            reserveIn(
                Map.of("AFFINITYKIT_LOCK_DIR", byEnv.toString()),
                List.of("-Daffinitykit.lock.dir=" + byProperty)))
        .containsExactly("RESERVED", byProperty.toString());
    assertThat(reserveIn(Map.of("AFFINITYKIT_LOCK_DIR", byEnv.toString()), List.of()))
        .containsExactly("RESERVED", byEnv.toString());
    assertThat(reserveIn(Map.of("AFFINITYKIT_LOCK_DIR", ""), List.of())) // blank: unset
        .containsExactly("RESERVED", dir("tmpdir").toString());
    assertThat(byEnv.resolve("cpu-1.lock.affinitykit")).exists();
    assertThat(String.join(" ", reserveIn(Map.of("AFFINITYKIT_LOCK_DIR", "locks"), List.of())))
        .isEqualTo("ERROR AFFINITYKIT_LOCK_DIR: locks (expected: an absolute path of a directory)");
  }
}
