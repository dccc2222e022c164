package io.github.affinitykit.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * What a library user sees who did not add a native transport (the natives are optional
 * dependencies): {@link TransportChoice} is loaded in a class loader over the test class path less
 * the Netty transport jars, and AUTO falls back to NIO saying which artifact to add.
 */
@EnabledOnOs(OS.LINUX)
class TransportWithoutNativesTest {
  private static final String HINT =
      " unavailable: add netty-transport-native-%s with your classifier"
          + " (linux-x86_64, linux-aarch_64)";

  @Test
  void shouldNameTheArtifactToAddWhenNeitherClassesNorNativesArePresent() throws Exception {
    String reason =
        autoReason(
            jar ->
                jar.contains("netty-transport-native-epoll")
                    || jar.contains("netty-transport-native-io_uring")
                    || jar.contains("netty-transport-classes-"));

    assertThat(reason)
        .startsWith("IO_URING" + HINT.formatted("io_uring") + "; ")
        .contains("EPOLL" + HINT.formatted("epoll") + "; ")
        .endsWith("falling back to NIO");
  }

  @Test
  void shouldNameTheArtifactToAddWhenOnlyTheClassesArePresent() throws Exception {
    String reason =
        autoReason(
            jar ->
                jar.contains("netty-transport-native-epoll")
                    || jar.contains("netty-transport-native-io_uring"));

    assertThat(reason)
        .contains("EPOLL" + HINT.formatted("epoll") + ": could not load a native library")
        .endsWith("falling back to NIO");
  }

  /** Runs {@code TransportChoice.choose(AUTO).reason()} without the class path jars it hides. */
  private static String autoReason(Predicate<String> hidden) throws Exception {
    List<URL> urls = new ArrayList<>();
    int hiddenJars = 0;
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (hidden.test(Path.of(entry).getFileName().toString())) {
        hiddenJars++;
      } else {
        urls.add(Path.of(entry).toUri().toURL());
      }
    }
    assertThat(hiddenJars).as("transport jars on the test class path").isPositive();
    try (URLClassLoader loader =
        new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
      Class<?> transport = Class.forName(Transport.class.getName(), true, loader);
      Class<?> choice = Class.forName(TransportChoice.class.getName(), true, loader);
      Object auto = transport.getField("AUTO").get(null);
      Object chosen = choice.getMethod("choose", transport).invoke(null, auto);
      assertThat(choice.getMethod("transport").invoke(chosen)).hasToString("NIO");
      return (String) choice.getMethod("reason").invoke(chosen);
    }
  }
}
