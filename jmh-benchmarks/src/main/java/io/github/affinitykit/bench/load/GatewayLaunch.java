package io.github.affinitykit.bench.load;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * How the gateway JVM is launched: by default its main class on this JVM's own class path (the load
 * test depends on {@code affinity-gateway}, so the gateway comes with it, from the reactor, the
 * local repository or the shaded benchmarks jar); or a gateway jar the user names.
 *
 * <p>Thread safety: immutable.
 *
 * @param java the {@code java} executable
 * @param jar the gateway jar, or empty to run {@link #MAIN} from {@code classPath}
 * @param classPath the class path holding {@link #MAIN} (unused with a jar)
 */
record GatewayLaunch(String java, String jar, String classPath) {
  /** The gateway's main class, in {@code affinity-gateway}. */
  static final String MAIN = "io.github.affinitykit.netty.gateway.GatewayMain";

  /** Validates. */
  GatewayLaunch {
    Objects.requireNonNull(java, "java");
    Objects.requireNonNull(jar, "jar");
    Objects.requireNonNull(classPath, "classPath");
    if (jar.isEmpty() && classPath.isEmpty()) {
      throw new IllegalArgumentException(
          "gateway: no jar and an empty class path (expected: one of them)");
    }
  }

  /**
   * The gateway on this JVM's class path (entries made absolute, so the gateway does not depend on
   * the working directory), run by this JVM's {@code java}.
   */
  static GatewayLaunch ownClassPath() {
    String cp = System.getProperty("java.class.path", "");
    boolean found =
        !cp.isBlank()
            && GatewayLaunch.class.getClassLoader().getResource(MAIN.replace('.', '/') + ".class")
                != null;
    if (!found) {
      throw new IllegalStateException(
          "java.class.path: "
              + cp
              + " (expected: a class path with "
              + MAIN
              + ", i.e. affinity-gateway)");
    }
    String absolute =
        Arrays.stream(cp.split(File.pathSeparator))
            .filter(e -> !e.isEmpty())
            .map(e -> Path.of(e).toAbsolutePath().toString())
            .collect(Collectors.joining(File.pathSeparator));
    return new GatewayLaunch(javaOfThisJvm(), "", absolute);
  }

  /** The gateway jar {@code jar}, run by this JVM's {@code java}. */
  static GatewayLaunch jar(Path jar) {
    return new GatewayLaunch(javaOfThisJvm(), jar.toString(), "");
  }

  /** The JVM options that start the gateway: {@code -cp <cp> <main>} or {@code -jar <jar>}. */
  List<String> mainArgs() {
    return jar.isEmpty() ? List.of("-cp", classPath, MAIN) : List.of("-jar", jar);
  }

  /** What the report says about the gateway. */
  String describe() {
    return jar.isEmpty() ? MAIN + " from the load test's class path" : jar;
  }

  private static String javaOfThisJvm() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
