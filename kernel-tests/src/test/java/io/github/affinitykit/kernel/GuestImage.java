package io.github.affinitykit.kernel;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Builds a guest's initramfs from the project's own jars: a base archive (a jlink'd runtime, static
 * busybox and the shared libraries {@code ldd} lists) and an application archive (this module's
 * test classpath and the gateway jar), each cached under the work directory by a hash of its
 * inputs, then a tiny per-shape archive with {@code /init}. The kernel unpacks concatenated
 * archives in order.
 *
 * <p>Thread safety: not thread-safe; tests build images one at a time.
 */
final class GuestImage {
  /** The runtime's modules: JNA and Netty need jdk.unsupported; the echo client java.net.http. */
  static final String MODULES =
      "java.base,jdk.unsupported,java.logging,java.management,jdk.management,java.net.http,jdk.jfr";

  private final Path work;
  private final Path busybox;
  private final List<Path> classpath;
  private final Path gatewayJar;

  GuestImage(Path work, Path busybox, List<Path> classpath, Path gatewayJar) {
    this.work = work;
    this.busybox = busybox;
    this.classpath = List.copyOf(classpath);
    this.gatewayJar = gatewayJar;
  }

  /** The guest's classpath, as {@link #build} lays it out. */
  String guestClasspath() {
    List<String> cp = new ArrayList<>();
    for (int i = 0; i < classpath.size(); i++) {
      cp.add("/app/cp/" + i + (Files.isDirectory(classpath.get(i)) ? "" : ".jar"));
    }
    return String.join(":", cp);
  }

  /** Where kernel module {@code module} (a path under the kernel's modules) lies in the guest. */
  static String moduleInGuest(String module) {
    return "/lib/modules/" + Path.of(module).getFileName();
  }

  /**
   * Builds (or reuses) the base and application archives and writes {@code init}, the shape's
   * kernel modules ({@code modules}: path under the kernel's modules → file here) and its host
   * programs ({@code programs}, each at its own path, with the libraries {@code ldd} lists) after
   * them.
   */
  Path build(String shapeName, String init, Map<String, Path> modules, List<Path> programs)
      throws IOException, InterruptedException {
    Files.createDirectories(work);
    Path base = base();
    Path app = app();
    Path initCpio = work.resolve(shapeName + "-init.cpio");
    try (Cpio c = new Cpio(initCpio)) {
      c.text("/init", init, true);
      if (!modules.isEmpty()) {
        c.dir("/lib");
        c.dir("/lib/modules");
      }
      for (Map.Entry<String, Path> m : modules.entrySet()) {
        c.file(moduleInGuest(m.getKey()), m.getValue());
      }
      for (Path p : programs) {
        c.file(p.toString(), p.toRealPath());
      }
      if (!programs.isEmpty()) {
        for (Path lib : programLibraries(programs)) {
          c.file(lib.toString(), lib.toRealPath());
        }
      }
    }
    Path image = work.resolve(shapeName + ".initrd");
    try (OutputStream out = Files.newOutputStream(image)) {
      for (Path p : List.of(base, app, initCpio)) {
        Files.copy(p, out);
      }
    }
    return image;
  }

  private Path base() throws IOException, InterruptedException {
    String javaHome = System.getProperty("java.home");
    Path image =
        work.resolve(
            "base-"
                + hash(
                    List.of(busybox, Path.of(javaHome, "release")),
                    MODULES + Runtime.version() + javaHome)
                + ".cpio");
    if (Files.exists(image)) {
      return image;
    }
    Path jre = work.resolve("jre");
    deleteTree(jre);
    run(
        List.of(
            Path.of(javaHome, "bin", "jlink").toString(),
            "--add-modules",
            MODULES,
            "--strip-debug",
            "--no-header-files",
            "--no-man-pages",
            "--compress=2",
            "--generate-cds-archive",
            "--output",
            jre.toString()));
    Path tmp = Files.createTempFile(work, "base", ".part");
    try (Cpio c = new Cpio(tmp)) {
      c.file("/bin/busybox", busybox);
      for (String d : List.of("/proc", "/sys", "/dev", "/tmp", "/etc", "/root")) {
        c.dir(d);
      }
      for (Path lib : sharedLibraries(jre)) {
        c.file(lib.toString(), lib.toRealPath());
      }
      c.tree("/opt/jre", jre);
    }
    Files.move(tmp, image, StandardCopyOption.REPLACE_EXISTING);
    return image;
  }

  private Path app() throws IOException {
    List<Path> inputs = new ArrayList<>(classpath);
    inputs.add(gatewayJar);
    Path image = work.resolve("app-" + hash(inputs, "") + ".cpio");
    if (Files.exists(image)) {
      return image;
    }
    Path tmp = Files.createTempFile(work, "app", ".part");
    try (Cpio c = new Cpio(tmp)) {
      for (int i = 0; i < classpath.size(); i++) {
        Path p = classpath.get(i);
        if (Files.isDirectory(p)) {
          c.tree("/app/cp/" + i, p);
        } else {
          c.file("/app/cp/" + i + ".jar", p);
        }
      }
      c.file("/app/gateway.jar", gatewayJar);
    }
    Files.move(tmp, image, StandardCopyOption.REPLACE_EXISTING);
    return image;
  }

  /** What {@code ldd} lists for the runtime's launcher and libraries, plus libc's helpers. */
  private static TreeSet<Path> sharedLibraries(Path jre) throws IOException, InterruptedException {
    List<Path> binaries = new ArrayList<>(List.of(jre.resolve("bin/java")));
    try (var files = Files.walk(jre.resolve("lib"))) {
      files.filter(p -> p.toString().endsWith(".so")).forEach(binaries::add);
    }
    TreeSet<Path> libs = ldd(binaries, jre.toString());
    Path libc = libs.stream().filter(p -> p.endsWith("libc.so.6")).findFirst().orElseThrow();
    for (String extra : List.of("libdl.so.2", "libpthread.so.0", "librt.so.1")) {
      Path p = libc.resolveSibling(extra);
      if (Files.exists(p)) {
        libs.add(p);
      }
    }
    return libs;
  }

  /**
   * The libraries {@code ldd} lists for {@code binaries}, those under {@code skip} (if any) left
   * out.
   */
  private static TreeSet<Path> ldd(List<Path> binaries, String skip)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("ldd"));
    binaries.forEach(b -> cmd.add(b.toString()));
    TreeSet<Path> libs = new TreeSet<>();
    for (String line : run(cmd).split("\n")) {
      for (String word : line.trim().split("\\s+")) {
        boolean skipped = !skip.isEmpty() && word.startsWith(skip);
        if (word.startsWith("/") && !skipped && !word.endsWith(":")) {
          libs.add(Path.of(word));
        }
      }
    }
    return libs;
  }

  /** The libraries of {@code programs}; none for a statically linked one. */
  private static TreeSet<Path> programLibraries(List<Path> programs)
      throws IOException, InterruptedException {
    TreeSet<Path> libs = new TreeSet<>();
    for (Path program : programs) {
      try {
        libs.addAll(ldd(List.of(program), ""));
      } catch (IOException e) {
        if (!String.valueOf(e.getMessage()).contains("not a dynamic executable")) {
          throw e;
        }
      }
    }
    return libs;
  }

  private static String run(List<String> cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    byte[] out;
    try (InputStream in = p.getInputStream()) {
      out = in.readAllBytes();
    }
    if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IOException(cmd.get(0) + " failed: " + new String(out, StandardCharsets.UTF_8));
    }
    return new String(out, StandardCharsets.UTF_8);
  }

  /** A hash of the inputs' paths, sizes and modification times, and {@code salt}. */
  private static String hash(List<Path> inputs, String salt) throws IOException {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(salt.getBytes(StandardCharsets.UTF_8));
      for (Path p : inputs) {
        List<Path> files = new ArrayList<>();
        if (Files.isDirectory(p)) {
          try (var w = Files.walk(p)) {
            w.filter(Files::isRegularFile).sorted().forEach(files::add);
          }
        } else {
          files.add(p);
        }
        for (Path f : files) {
          md.update(
              (f + "|" + Files.size(f) + "|" + Files.getLastModifiedTime(f).toMillis() + "\n")
                  .getBytes(StandardCharsets.UTF_8));
        }
      }
      return HexFormat.of().formatHex(md.digest(), 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (var w = Files.walk(p)) {
      for (Path f : (Iterable<Path>) w.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.delete(f);
      }
    }
  }
}
