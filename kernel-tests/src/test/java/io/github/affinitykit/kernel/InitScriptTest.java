package io.github.affinitykit.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The init script starts a run's JVM by exec, or hands its command line to the run's launcher. */
class InitScriptTest {
  @Test
  void shouldHandTheJvmCommandLineToTheLauncherInsteadOfExecingIt() {
    String init = InitScript.render(Shapes.R, "/app/cp/0");

    assertThat(init)
        .contains("in_container() {")
        .contains(
            Container.LAUNCHER
                + " /opt/jre/bin/java -Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1")
        .contains("GuestMain r container\n) > /dev/console 2>&1\n")
        .doesNotContain("exec /opt/jre/bin/java")
        .contains("runc run --no-pivot c1 &")
        .contains("\"cgroupsPath\":\"/kubepods/pod1/c1\",\"resources\":{\"cpu\":{\"cpus\":\"2-5\"}")
        .contains("runc update --cpuset-cpus 2-3 c1\n");
  }

  @Test
  void shouldExecTheJvmWhenTheRunHasNoLauncher() {
    String init = InitScript.render(Shapes.C, "/app/cp/0");

    assertThat(init).contains("exec /opt/jre/bin/java").doesNotContain(Container.LAUNCHER);
  }
}
