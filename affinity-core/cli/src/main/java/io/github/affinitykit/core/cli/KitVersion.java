package io.github.affinitykit.core.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What {@code --version} prints for every Affinity Kit command line: the command, the project
 * version the build wrote into {@code version.properties}, and the JVM and OS it runs on.
 *
 * <p>Thread safety: picocli creates one per command; reads only.
 */
public final class KitVersion implements IVersionProvider {
  @Spec private CommandSpec spec;

  /** Creates the provider (picocli instantiates it reflectively). */
  public KitVersion() {
    // the spec is injected by picocli
  }

  /** Returns the lines of {@code --version}. */
  @Override
  public String[] getVersion() {
    String command = spec == null ? "affinity-kit" : spec.qualifiedName();
    return new String[] {
      command + " (Affinity Kit " + version() + ")",
      "Java "
          + Runtime.version()
          + " ("
          + System.getProperty("java.vm.name", "?")
          + "), "
          + System.getProperty("os.name", "?")
          + " "
          + System.getProperty("os.arch", "?")
    };
  }

  /** The project version, or {@code unknown} if the build did not write it. */
  static String version() {
    Properties p = new Properties();
    try (InputStream in = KitVersion.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    }
    return p.getProperty("version", "unknown");
  }
}
