package io.github.affinitykit.core.testkit;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/** Unpacks the sysfs fixture tarballs of {@code src/test/resources/fixtures} once per JVM. */
public final class Fixtures {
  /** The hwloc trees, by tarball base name (each has a {@code .console} answer). */
  public static final List<String> HWLOC =
      List.of(
          "128arm-2pa2n8cluster4co",
          "16amd64-8n2c-cpusets",
          "16em64t-4s2c2t-offlines",
          "20em64t-hybrid-1p6c2t+2ca4co1t",
          "2arm-2c",
          "32intel64-2p8co2t+8ve",
          "48amd64-4pa2n6c-sparse",
          "8em64t-2s2ca2c-buggynuma");

  /** The seed machine: 2-socket E5-2620 v3 with isolcpus=19-23. */
  public static final String E5 = "e5-2620v3";

  /**
   * The seed machine with network devices: eth0 (i40e-style, node 1, IRQ 63 on pool CPU 20), eth1
   * (node 0, one legacy IRQ), lo and a docker0 bridge; made by {@code
   * src/test/fixtures/e5-2620v3-nic.sh}.
   */
  public static final String E5_NIC = "e5-2620v3-nic";

  private static final Path OUT = Paths.get("target", "fixtures");
  private static final ConcurrentMap<String, Path> ROOTS = new ConcurrentHashMap<>();

  private Fixtures() {}

  /** Returns the root directory (holding {@code sys/} and {@code proc/}) of the named fixture. */
  public static Path root(String name) {
    return ROOTS.computeIfAbsent(name, Fixtures::unpack);
  }

  /** Returns hwloc's expected {@code lstopo} console output for the named tree. */
  public static String console(String name) {
    try (InputStream in = resource(name + ".console")) {
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static InputStream resource(String file) {
    InputStream in = Fixtures.class.getResourceAsStream("/fixtures/" + file);
    if (in == null) {
      throw new IllegalArgumentException("no fixture " + file);
    }
    return in;
  }

  private static Path unpack(String name) {
    boolean gz = name.startsWith(E5);
    Path dest = OUT.resolve(name).toAbsolutePath();
    try (InputStream raw = new BufferedInputStream(resource(name + (gz ? ".tar.gz" : ".tar.bz2")));
        InputStream unzipped =
            gz ? new GzipCompressorInputStream(raw) : new BZip2CompressorInputStream(raw);
        TarArchiveInputStream tar = new TarArchiveInputStream(unzipped)) {
      Path tmp =
          Files.createDirectories(OUT).resolve(name + ".tmp-" + ProcessHandle.current().pid());
      TarArchiveEntry e;
      while ((e = tar.getNextEntry()) != null) {
        Path p = tmp.resolve(e.getName()).normalize();
        if (!p.startsWith(tmp)) {
          throw new IOException("entry outside the tree: " + e.getName());
        }
        if (e.isDirectory()) {
          Files.createDirectories(p);
        } else if (e.isSymbolicLink()) {
          Files.createDirectories(p.getParent());
          Files.createSymbolicLink(p, Paths.get(e.getLinkName()));
        } else if (e.isFile()) {
          Files.createDirectories(p.getParent());
          Files.copy(tar, p, StandardCopyOption.REPLACE_EXISTING);
        }
      }
      return finish(tmp, dest, gz);
    } catch (IOException e) {
      throw new UncheckedIOException("unpack fixture " + name, e);
    }
  }

  /**
   * hwloc tarballs hold one top directory (not always named like the file); ours holds sys/ proc/.
   */
  private static Path finish(Path tmp, Path dest, boolean flat) throws IOException {
    Path top = tmp;
    if (!flat) {
      try (var s = Files.list(tmp)) {
        top = s.filter(Files::isDirectory).findFirst().orElseThrow();
      }
    }
    if (Files.exists(dest)) {
      deleteTree(tmp);
      return dest;
    }
    Files.move(top, dest);
    deleteTree(tmp);
    return dest;
  }

  private static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (var s = Files.walk(p)) {
      for (Path q : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(q);
      }
    }
  }
}
