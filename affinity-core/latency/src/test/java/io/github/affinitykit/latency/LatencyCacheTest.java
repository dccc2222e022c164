package io.github.affinitykit.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cpu.CpuSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cache: what it keeps, when it measures again, and the directories and files it refuses. */
class LatencyCacheTest {
  private static final HostKey KEY = new HostKey("cpus 0-3", "6.8.0-1-generic", "Test CPU");
  private static final LatencyMatrix MATRIX =
      LatencyMatrix.of(
          CpuSet.range(0, 3),
          new double[][] {
            {0, 21.25, 80.5, Double.NaN},
            {21.5, 0, 81, 82.125},
            {80.5, 81, 0, 19.0000001},
            {83, 82.125, 19, 0},
          });

  @TempDir Path temp;
  private final List<CpuSet> measured = new ArrayList<>();

  private LatencyMatrix measure(CpuSet cpus) {
    measured.add(cpus);
    return MATRIX.restrict(cpus);
  }

  @Test
  void shouldReadBackExactlyWhatItStoredInAPrivateDirectoryItMade() throws IOException {
    Path dir = temp.resolve("cache/affinity-kit");
    LatencyCache cache = LatencyCache.inDirectory(dir);
    Path file = cache.store(KEY, MATRIX);
    assertThat(file).isEqualTo(dir.resolve("latency-" + KEY.id() + ".matrix"));
    assertThat(cache.load(KEY, MATRIX.cpus())).contains(MATRIX);
    assertThat(cache.load(KEY, CpuSet.of(1, 3))).contains(MATRIX.restrict(CpuSet.of(1, 3)));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
        .isEqualTo("rwx------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    try (var listing = Files.list(dir)) {
      assertThat(listing).containsExactly(file); // no temporary file left behind
    }
    assertThat(Files.readString(file))
        .startsWith(
            "affinity-kit latency matrix 1\nkey " + KEY.id() + "\nkernel 6.8.0-1-generic\n");
  }

  @Test
  void shouldMeasureOnceThenReadUntilTheKeyChangesOrARefreshIsAsked() throws Exception {
    LatencyCache cache = LatencyCache.inDirectory(temp.resolve("c"));
    LatencyLookup first = cache.lookup(KEY, CpuSet.range(0, 3), this::measure, false);
    assertThat(first.origin()).isEqualTo(LatencyLookup.Origin.MEASURED);
    assertThat(first.reason())
        .startsWith("measured: no matrix of CPUs 0-3 was cached for key " + KEY.id());
    LatencyLookup second = cache.lookup(KEY, CpuSet.range(1, 2), this::measure, false);
    assertThat(second.origin()).isEqualTo(LatencyLookup.Origin.CACHED);
    assertThat(second.matrix()).isEqualTo(MATRIX.restrict(CpuSet.range(1, 2)));
    assertThat(measured).containsExactly(CpuSet.range(0, 3));

    HostKey newKernel = new HostKey(KEY.topology(), "6.9.0-2-generic", KEY.model());
    assertThat(newKernel.id()).isNotEqualTo(KEY.id());
    assertThat(cache.lookup(newKernel, CpuSet.range(0, 3), this::measure, false).origin())
        .isEqualTo(LatencyLookup.Origin.MEASURED);
    assertThat(cache.lookup(KEY, CpuSet.range(0, 3), this::measure, true).origin())
        .isEqualTo(LatencyLookup.Origin.REFRESHED);
    assertThat(measured).hasSize(3);
  }

  @Test
  void shouldMeasureAgainWhenTheCachedFileIsAnotherKeysLacksACpuOrIsGarbled() throws Exception {
    LatencyCache cache = LatencyCache.inDirectory(temp.resolve("c"));
    cache.store(KEY, MATRIX.restrict(CpuSet.range(0, 1)));
    assertThat(cache.lookup(KEY, CpuSet.range(0, 3), this::measure, false).origin())
        .isEqualTo(LatencyLookup.Origin.MEASURED);
    HostKey other = new HostKey("cpus 0-7", KEY.kernel(), KEY.model());
    Files.copy(cache.file(KEY), cache.file(other)); // a file whose key line is not its name's
    assertThat(cache.load(other, CpuSet.range(0, 3))).isEmpty();
    Files.writeString(cache.file(KEY), "affinity-kit latency matrix 1\nkey " + KEY.id() + "\nx\n");
    assertThat(cache.load(KEY, CpuSet.of(0))).isEmpty();
    assertThat(cache.lookup(KEY, CpuSet.range(0, 3), this::measure, false).origin())
        .isEqualTo(LatencyLookup.Origin.MEASURED);
    assertThat(cache.load(KEY, CpuSet.range(0, 3))).contains(MATRIX);
  }

  @Test
  void shouldRefuseAGroupOrWorldWritableDirectoryOrFile() throws IOException {
    Path dir = Files.createDirectory(temp.resolve("shared"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwx---"));
    assertThatThrownBy(() -> LatencyCache.inDirectory(dir).load(KEY, CpuSet.of(0)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "latency cache: " + dir + " mode rwxrwx--- (expected: writable by its owner alone)");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx-----x"));
    LatencyCache cache = LatencyCache.inDirectory(dir);
    Path file = cache.store(KEY, MATRIX);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
    assertThatThrownBy(() -> cache.load(KEY, CpuSet.of(0)))
        .hasMessage(
            "latency cache: " + file + " mode rw-rw-rw- (expected: writable by its owner alone)");
  }

  @Test
  void shouldRefuseADirectoryOrFileThatIsASymbolicLink() throws IOException {
    Path real =
        Files.createDirectory(
            temp.resolve("real"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path link = Files.createSymbolicLink(temp.resolve("link"), real);
    assertThatThrownBy(() -> LatencyCache.inDirectory(link).store(KEY, MATRIX))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "latency cache: "
                + link
                + " a symbolic link (expected: a directory, not a symbolic link)");
    LatencyCache cache = LatencyCache.inDirectory(real);
    Path elsewhere = cache.store(new HostKey("x", "y", "z"), MATRIX);
    Files.createSymbolicLink(cache.file(KEY), elsewhere);
    assertThatThrownBy(() -> cache.load(KEY, CpuSet.of(0)))
        .hasMessage(
            "latency cache: "
                + cache.file(KEY)
                + " a symbolic link (expected: a regular file, not a symbolic link)");
    Path plain = Files.writeString(temp.resolve("plain"), "");
    assertThatThrownBy(() -> LatencyCache.inDirectory(plain).load(KEY, CpuSet.of(0)))
        .hasMessage("latency cache: " + plain + " not a directory (expected: a directory)");
  }

  @Test
  void shouldRefuseADirectoryAnotherUserOwns() throws IOException {
    Path dir =
        Files.createDirectory(
            temp.resolve("theirs"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    int me = LatencyCache.processUid();
    int owner = (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    assertThat(owner).isEqualTo(me);
    // as another user would see it: the owner check alone, on a real directory
    LatencyCache asOther = new LatencyCache(dir, () -> me + 1);
    assertThatThrownBy(() -> asOther.load(KEY, CpuSet.of(0)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "latency cache: "
                + dir
                + " owned by uid "
                + me
                + " (expected: owned by uid "
                + (me + 1)
                + ", this process's user)");
    if (me == 0) { // root (CI) hands the directory to another user for real
      Files.setAttribute(dir, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);
      assertThatThrownBy(() -> LatencyCache.inDirectory(dir).load(KEY, CpuSet.of(0)))
          .hasMessage(
              "latency cache: "
                  + dir
                  + " owned by uid 65534 (expected: owned by uid 0, this process's user)");
    }
  }

  @Test
  void shouldTakeItsDirectoryFromThePropertyElseTheUsersCache() {
    String before = System.getProperty(LatencyCache.DIRECTORY_PROPERTY);
    try {
      System.setProperty(LatencyCache.DIRECTORY_PROPERTY, temp.toString());
      assertThat(LatencyCache.inDefaultDirectory().directory()).isEqualTo(temp);
      System.clearProperty(LatencyCache.DIRECTORY_PROPERTY);
      String xdg = System.getenv("XDG_CACHE_HOME");
      Path expected =
          xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()
              ? Path.of(xdg, "affinity-kit")
              : Path.of(System.getProperty("user.home"), ".cache", "affinity-kit");
      assertThat(LatencyCache.inDefaultDirectory().directory()).isEqualTo(expected);
    } finally {
      if (before == null) {
        System.clearProperty(LatencyCache.DIRECTORY_PROPERTY);
      } else {
        System.setProperty(LatencyCache.DIRECTORY_PROPERTY, before);
      }
    }
  }
}
