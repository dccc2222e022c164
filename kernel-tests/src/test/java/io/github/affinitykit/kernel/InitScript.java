package io.github.affinitykit.kernel;

import java.util.List;

/**
 * Renders a shape's {@code /init}: mount proc, sys, dev and a tmpfs, report the boot, run the
 * shape's pre-boot steps, start the guest program once per run (each in a subshell that first runs
 * the run's prefix, e.g. joining a cgroup, then execs the JVM or hands its command line to the
 * run's launcher), report each exit, power off.
 *
 * <p>Thread safety: stateless.
 */
final class InitScript {
  /** The guest's result port: the second serial port, nothing else writes there. */
  static final String RESULT_PORT = "/dev/ttyS1";

  private static final String JAVA = "/opt/jre/bin/java";

  private InitScript() {}

  /** The init script for {@code shape}, starting the guest program with {@code classpath}. */
  static String render(Shape shape, String classpath) {
    StringBuilder s = new StringBuilder();
    s.append("#!/bin/busybox sh\n")
        .append("/bin/busybox --install -s /bin\n")
        .append("mount -t proc proc /proc\n")
        .append("mount -t sysfs sys /sys\n")
        .append("mount -t devtmpfs dev /dev\n")
        .append("mount -t tmpfs -o size=512m tmp /tmp\n")
        .append("ip link set lo up\n")
        .append("export LANG=C.UTF-8\n")
        // every JVM in the guest, also those the load test starts: quick to start under TCG
        .append("export JAVA_TOOL_OPTIONS='-XX:+UseSerialGC -XX:TieredStopAtLevel=1'\n")
        .append("R=" + RESULT_PORT + "\n")
        .append("up() { cut -d' ' -f1 /proc/uptime; }\n")
        .append("echo \"@@AK booted uptime=$(up)\" > $R\n")
        .append("( set -x\n");
    for (String module : shape.modules()) {
      s.append("insmod ").append(GuestImage.moduleInGuest(module)).append('\n');
    }
    for (String line : shape.preBoot()) {
      s.append(line).append('\n');
    }
    s.append(") > /tmp/preboot.log 2>&1\n")
        .append("echo \"@@AK preboot exit=$? uptime=$(up)\" > $R\n")
        .append("sed 's/^/@@AK preboot: /' /tmp/preboot.log > $R\n");
    for (Shape.Run run : shape.runs()) {
      s.append("echo \"@@AK run-begin ").append(run.label()).append(" uptime=$(up)\" > $R\n");
      s.append("(\n");
      for (String line : run.shellPrefix()) {
        s.append(line).append('\n');
      }
      String java =
          String.join(" ", jvm(classpath))
              + " io.github.affinitykit.kernel.guest.GuestMain "
              + run.label()
              + ' '
              + String.join(" ", run.sections());
      String start;
      if (!run.launcher().isEmpty()) {
        start = run.launcher() + " " + java;
      } else if (run.user().isEmpty()) {
        start = "exec " + java;
      } else {
        start = "exec su -s /bin/sh " + run.user() + " -c 'exec " + java + "'";
      }
      s.append(start).append("\n) > /dev/console 2>&1").append(run.background() ? " &\n" : "\n");
      if (!run.background()) {
        s.append("echo \"@@AK run-end ")
            .append(run.label())
            .append(" exit=$? uptime=$(up)\" > $R\n");
      }
    }
    s.append("sync\npoweroff -f\n");
    return s.toString();
  }

  /** The guest JVM's command line: small heap, serial GC and C1 only, to be quick under TCG. */
  static List<String> jvm(String classpath) {
    return List.of(
        JAVA,
        "-Xmx384m",
        "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1",
        "-Djava.io.tmpdir=/tmp",
        "-Dkernel.result=" + RESULT_PORT,
        "-Dkernel.java=" + JAVA,
        "-Dkernel.classpath=" + classpath,
        "-Dkernel.gatewayJar=/app/gateway.jar",
        "-cp",
        classpath);
  }
}
