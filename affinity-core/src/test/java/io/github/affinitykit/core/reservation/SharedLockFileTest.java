package io.github.affinitykit.core.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.internal.natives.NativeLayer;
import io.github.affinitykit.core.testkit.NativeLayers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lock files in a directory several users share: what this process creates, every user can lock
 * (mode 0666 whatever the umask, on every lock file implementation); its own file missing some of
 * that mode gets it; another user's file is never changed; a file this user may not open is a typed
 * status naming the file, its owner, its mode and the fix. {@code SharedLockDirectoryIT} runs the
 * same with two real users.
 */
@EnabledOnOs(OS.LINUX)
class SharedLockFileTest {
  private static final int NOBODY = 65534;

  @TempDir Path tmp;

  /** Reservations through each native layer of this JDK, each in a directory of its own. */
  private List<CpuReservations> nativeLayers(String name) throws IOException {
    List<CpuReservations> all = new ArrayList<>();
    for (NativeLayer layer : NativeLayers.each()) {
      Path dir = Files.createDirectories(tmp.resolve(name + "-" + layer.name()));
      all.add(CpuReservations.withLayer(dir, layer));
    }
    return all;
  }

  /** Reservations on every implementation: each native layer, then Java's FileChannel. */
  private List<CpuReservations> everyImplementation(String name) throws IOException {
    List<CpuReservations> all = nativeLayers(name);
    Path dir = Files.createDirectories(tmp.resolve(name + "-channel"));
    all.add(new CpuReservations(dir, ChannelLockFile::new, System::currentTimeMillis));
    return all;
  }

  private static int mode(Path file) throws IOException {
    return (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777;
  }

  /** The mode a file created now gets from this JVM's umask: 0644 under the usual 022. */
  private int umaskedMode() throws IOException {
    return mode(Files.createFile(tmp.resolve("umask-probe")));
  }

  @Test
  void shouldCreateLockFilesThatEveryUserCanLockWhateverTheUmask() throws IOException {
    int umasked = umaskedMode();
    for (CpuReservations reservations : everyImplementation("created")) {
      reservations.tryReserve(1).orElseThrow().close();
      Path compat = reservations.lockFile(1);
      Path own = compat.resolveSibling("cpu-1.lock.affinitykit");
      assertThat(mode(compat)).as("%s (umask gives %o)", compat, umasked).isEqualTo(0666);
      assertThat(mode(own)).as("%s (umask gives %o)", own, umasked).isEqualTo(0666);
    }
  }

  @Test
  void shouldLeaveTheModeOfALockFileItDidNotCreateOnEveryNativeLayer() throws IOException {
    for (CpuReservations reservations : nativeLayers("own")) {
      Path compat = Files.writeString(reservations.lockFile(1), "42\nold");
      Files.setAttribute(compat, "unix:mode", 0600); // another program's, or an older version's
      reservations.tryReserve(1).orElseThrow().close();
      assertThat(mode(compat)).as(compat.toString()).isEqualTo(0600);
    }
  }

  @Test
  void shouldNeverChangeAnotherUsersLockFile() throws IOException {
    assumeTrue(
        Files.getAttribute(Path.of("/proc/self"), "unix:uid").equals(0),
        "needs root: only root can give a file to another user (chown)");
    for (CpuReservations reservations : everyImplementation("foreign")) {
      Path own = reservations.lockFile(1).resolveSibling("cpu-1.lock.affinitykit");
      Files.writeString(own, "42\nforeign", StandardCharsets.US_ASCII);
      Files.setAttribute(own, "unix:mode", 0644);
      Files.setAttribute(own, "unix:uid", NOBODY);

      reservations.tryReserve(1).orElseThrow().close(); // root may open it: locked, not changed

      assertThat(mode(own)).as(own.toString()).isEqualTo(0644);
      assertThat(Files.getAttribute(own, "unix:uid")).isEqualTo(NOBODY);
      assertThat(own).exists();
    }
  }

  @Test
  void shouldNameTheFileItsOwnerItsModeAndTheFixWhenThisUserMayNotOpenIt() throws IOException {
    Path own = Files.writeString(tmp.resolve("cpu-3.lock.affinitykit"), "");
    Files.setAttribute(own, "unix:mode", 0644);
    int uid = (Integer) Files.getAttribute(own, "unix:uid");
    String name = Files.getOwner(own).getName();
    FileStat stat = new FileStat(1, 2, 0100644, 1, uid);
    CpuLock lock = new CpuLock(new DeniedFile(own, stat), new DeniedFile(own, stat));

    ReservationResult result = lock.tryLock(3, "", new byte[0]);

    assertThat(result.status()).isEqualTo(ReservationStatus.PERMISSION_DENIED);
    assertThat(result.holderPid()).isEqualTo(-1);
    assertThat(result.reason())
        .isEqualTo(
            "cpu 3: "
                + own
                + " belongs to uid "
                + uid
                + " ("
                + name
                + "), mode 0644, and this user may not open it for writing: ask its owner or root"
                + " to chmod 666 it, or choose another lock directory with -Daffinitykit.lock.dir"
                + " or AFFINITYKIT_LOCK_DIR");
    assertThat(lock.isLocked()).isFalse();
  }

  /** A lock file this user may not open ({@code EACCES}). */
  private static final class DeniedFile implements LockFile {
    private final Path path;
    private final FileStat stat;

    DeniedFile(Path path, FileStat stat) {
      this.path = path;
      this.stat = stat;
    }

    @Override
    public Path path() {
      return path;
    }

    @Override
    public boolean isLocked() {
      return false;
    }

    @Override
    public ReservationResult tryLock(int cpu) {
      return ReservationResult.denied(cpu, path, stat);
    }

    @Override
    public void write(byte[] text) {
      throw new AssertionError("never written");
    }

    @Override
    public byte[] read() {
      return new byte[0];
    }

    @Override
    public ReservationStatus check() {
      return ReservationStatus.RESERVED;
    }

    @Override
    public void unlock() {}
  }
}
