package io.github.affinitykit.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.ChildJvm;
import io.github.affinitykit.core.LeaseStatus;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code META-INF/services} entry for {@link Flight} naming a class that is not there does not
 * break pinning: the thread is pinned, the events are off, and one warning names the error.
 */
@EnabledOnOs(OS.LINUX)
class BrokenFlightProviderIT {
  @TempDir Path tmp;

  @Test
  @Timeout(value = 90, threadMode = ThreadMode.SEPARATE_THREAD)
  void shouldPinAndWarnOnceWhenTheFlightProviderEntryNamesAMissingClass() throws Exception {
    Path services = Files.createDirectories(tmp.resolve("broken/META-INF/services"));
    Files.writeString(services.resolve(Flight.class.getName()), "no.such.FlightEvents\n");
    String classPath =
        tmp.resolve("broken") + File.pathSeparator + System.getProperty("java.class.path");
    ChildJvm.Launch launch = new ChildJvm.Launch(List.of(), classPath, Map.of());
    Path locks = Files.createDirectories(tmp.resolve("locks"));

    try (ChildJvm child =
        ChildJvm.start(tmp, launch, List.of(), BrokenFlightMain.class, locks.toString())) {
      assertThat(child.awaitLine("PINNED"))
          .as(child.stderr())
          .containsExactly(LeaseStatus.PINNED.name());
      assertThat(child.exit()).as(child.stderr()).isZero();
      assertThat(child.stderr().lines().filter(l -> l.contains("no Flight Recorder events")))
          .singleElement()
          .asString()
          .contains("WARNING", "ServiceConfigurationError", "no.such.FlightEvents");
    }
  }
}
