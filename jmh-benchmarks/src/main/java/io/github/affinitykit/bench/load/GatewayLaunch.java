package io.github.affinitykit.bench.load;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
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
 * @param classPath the class path holding {@link #MAIN}; with a jar, the load test's own (for
 *     {@link HandicappedGateway}), possibly empty
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
    return new GatewayLaunch(javaOfThisJvm(), "", absolute(cp));
  }

  private static String absolute(String cp) {
    return Arrays.stream(cp.split(File.pathSeparator))
        .filter(e -> !e.isEmpty())
        .map(e -> Path.of(e).toAbsolutePath().toString())
        .collect(Collectors.joining(File.pathSeparator));
  }

  /** The gateway jar {@code jar}, run by this JVM's {@code java}. */
  static GatewayLaunch jar(Path jar) {
    return new GatewayLaunch(
        javaOfThisJvm(), jar.toString(), absolute(System.getProperty("java.class.path", "")));
  }

  /** The JVM options that start the gateway: {@code -cp <cp> <main>} or {@code -jar <jar>}. */
  List<String> mainArgs() {
    return jar.isEmpty() ? List.of("-cp", classPath, MAIN) : List.of("-jar", jar);
  }

  /**
   * The JVM options that start the gateway inside {@link HandicappedGateway} burning {@code cpus}
   * of a CPU: its main class on the class path (a jar's own first), the handicap's from ours.
   */
  List<String> handicappedArgs(double cpus) {
    String cp = jar.isEmpty() ? classPath : jar + File.pathSeparator + classPath;
    return List.of(
        "-cp",
        cp,
        HandicappedGateway.class.getName(),
        String.format(Locale.ROOT, "%.4f", cpus),
        jar.isEmpty() ? MAIN : mainClass().orElse(MAIN));
  }

  /** The jar's {@code Main-Class}; empty without a jar or a readable manifest. */
  Optional<String> mainClass() {
    if (jar.isEmpty()) {
      return Optional.empty();
    }
    try (JarFile j = new JarFile(jar)) {
      Manifest m = j.getManifest();
      return Optional.ofNullable(m == null ? null : m.getMainAttributes().getValue("Main-Class"));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** What the report says about the gateway. */
  String describe() {
    return jar.isEmpty() ? MAIN + " from the load test's class path" : jar;
  }

  private static String javaOfThisJvm() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
