package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import net.openhft.affinity.AffinityLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The OpenHFT migration guide ({@code docs/migrating-from-openhft.md}) names every public type and
 * every public member of the {@code net.openhft:affinity} jar this build tests against, as {@code
 * javap -public} lists them (in process, no class of the jar loaded); a new OpenHFT release that
 * adds one fails here until the guide maps it.
 */
@Timeout(60)
class MigrationGuideTest {
  private static final Pattern TYPE =
      Pattern.compile("^public .*?(?:class|interface|enum) ([\\w.$]+)(?:<.*?>)?(?: |\\{).*");

  @Test
  void shouldNameEveryPublicTypeAndMemberOfOpenHft() throws IOException, URISyntaxException {
    Path jar =
        Path.of(AffinityLock.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> args = new ArrayList<>(List.of("-public", "-cp", jar.toString()));
    try (JarFile file = new JarFile(jar.toFile())) {
      file.stream()
          .map(JarEntry::getName)
          .filter(n -> n.endsWith(".class") && !n.startsWith("META-INF"))
          .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
          .forEach(args::add);
    }
    StringWriter listing = new StringWriter();
    int status =
        ToolProvider.findFirst("javap")
            .orElseThrow()
            .run(new PrintWriter(listing), new PrintWriter(listing), args.toArray(String[]::new));
    assertThat(status).as(listing.toString()).isZero();

    Set<String> names = publicNames(listing.toString());
    assertThat(names).as("javap's listing was read").contains("AffinityLock", "acquireCore");
    String guide = Files.readString(Path.of("..", "docs", "migrating-from-openhft.md"));
    Set<String> missing = new TreeSet<>();
    for (String name : names) {
      if (!Pattern.compile("(?<![\\w$])" + Pattern.quote(name) + "(?![\\w$])")
          .matcher(guide)
          .find()) {
        missing.add(name);
      }
    }
    assertThat(missing).as("OpenHFT names the migration guide does not map").isEmpty();
  }

  /** The simple names of the public types, and of the members of public types, in the listing. */
  private static Set<String> publicNames(String listing) {
    Set<String> names = new TreeSet<>();
    boolean inPublicType = false;
    for (String line : listing.split("\\R")) {
      String s = line.strip();
      Matcher type = TYPE.matcher(s);
      if (type.matches()) {
        names.add(simple(type.group(1)));
        inPublicType = true;
      } else if (s.endsWith("{")) {
        inPublicType = false; // a type javap lists though it is not public
      } else if (inPublicType && s.endsWith(";")) {
        String declaration = s.replaceAll(" throws .*;$", ";");
        int paren = declaration.indexOf('(');
        String head =
            paren < 0
                ? declaration.substring(0, declaration.length() - 1)
                : declaration.substring(0, paren);
        names.add(simple(head.substring(head.lastIndexOf(' ') + 1)));
      }
    }
    return names;
  }

  /** {@code a.b.C$d} → {@code d}: constructors are listed by their type's binary name. */
  private static String simple(String name) {
    return name.substring(Math.max(name.lastIndexOf('.'), name.lastIndexOf('$')) + 1);
  }
}
