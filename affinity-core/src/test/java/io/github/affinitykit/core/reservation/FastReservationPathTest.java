package io.github.affinitykit.core.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.internal.natives.FileCalls;
import io.github.affinitykit.core.internal.natives.NativeLayer;
import io.github.affinitykit.core.testkit.NativeLayers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * What makes a reservation cheap without weakening it: {@code statx} reads what the JDK reads (on
 * every native layer), the holder text is formatted once per second, a lock file that already holds
 * the text is not written again (nor truncated unless its old text was longer), and the directory
 * is made once but made again when it disappears.
 */
@EnabledOnOs(OS.LINUX)
class FastReservationPathTest {
  private static final FileTime OLD = FileTime.from(1_000_000, TimeUnit.SECONDS);

  @TempDir Path tmp;

  private static FileStat jdk(Path path) throws IOException {
    Map<String, Object> a =
        Files.readAttributes(path, "unix:dev,ino,mode,nlink,uid", LinkOption.NOFOLLOW_LINKS);
    return new FileStat(
        (Long) a.get("dev"),
        (Long) a.get("ino"),
        (Integer) a.get("mode"),
        (Integer) a.get("nlink"),
        (Integer) a.get("uid"));
  }

  @Test
  void shouldReadWithStatxWhatTheJdkReadsOnEveryLayer() throws IOException {
    Path file = Files.writeString(tmp.resolve("file"), "x");
    Path link = Files.createSymbolicLink(tmp.resolve("link"), file);
    Path hard = Files.createLink(tmp.resolve("hard"), file);
    for (NativeLayer layer : NativeLayers.each()) {
      FileCalls calls = layer.files().orElseThrow();
      for (Path p : new Path[] {file, link, hard, tmp}) {
        assertThat(FileStat.lstat(calls, p, NativeLayer.cString(p.toString())))
            .as(layer + " " + p)
            .contains(jdk(p));
      }
      Path missing = tmp.resolve("missing");
      assertThat(FileStat.lstat(calls, missing, NativeLayer.cString(missing.toString()))).isEmpty();
      int fd = calls.open(NativeLayer.cString(file.toString()), FileCalls.O_RDWR, 0);
      assertThat(fd).as(layer.toString()).isNotNegative();
      try {
        assertThat(FileStat.ofDescriptor(calls, fd)).as(layer.toString()).isEqualTo(jdk(file));
      } finally {
        calls.close(fd);
      }
    }
  }

  @Test
  void shouldFormatTheHolderTextOncePerSecond() throws IOException {
    AtomicLong millis = new AtomicLong(1_769_860_800_100L);
    CpuReservations reservations =
        new CpuReservations(tmp.resolve("locks"), ChannelLockFile::new, millis::get);
    reservations.tryReserve(1).orElseThrow().close();
    byte[] first = reservations.holderBytes();
    ZonedDateTime since =
        ZonedDateTime.ofInstant(Instant.ofEpochMilli(millis.get()), ZoneId.systemDefault());
    String text = LockText.forHolder(ProcessHandle.current().pid(), since);
    assertThat(first).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
    assertThat(Files.readString(tmp.resolve("locks/cpu-1.lock"))).isEqualTo(text);

    millis.addAndGet(800);
    reservations.tryReserve(1).orElseThrow().close();
    assertThat(reservations.holderBytes()).isSameAs(first);
    millis.addAndGet(200);
    reservations.tryReserve(1).orElseThrow().close();
    assertThat(reservations.holderBytes()).isNotSameAs(first).isNotEqualTo(first);
  }

  @Test
  void shouldNotRewriteALockFileThatAlreadyHoldsTheTextOnEveryLayer() throws IOException {
    for (NativeLayer layer : NativeLayers.each()) {
      Path path = Files.writeString(tmp.resolve("cpu-1.lock"), "42\nsame");
      Files.setLastModifiedTime(path, OLD);
      NativeLockFile file = new NativeLockFile(path, layer.files().orElseThrow());
      assertThat(file.tryLock(1)).as(layer.toString()).isNull();
      try {
        file.write("42\nsame".getBytes(StandardCharsets.US_ASCII));
        assertThat(Files.getLastModifiedTime(path)).isEqualTo(OLD);

        file.write("42\nlonger text".getBytes(StandardCharsets.US_ASCII));
        assertThat(Files.readString(path)).isEqualTo("42\nlonger text");
        file.write("7\nshort".getBytes(StandardCharsets.US_ASCII));
        assertThat(Files.readString(path)).isEqualTo("7\nshort");
      } finally {
        file.unlock();
      }
      Files.delete(path);
    }
  }

  @Test
  void shouldMakeTheDirectoryAgainWhenItWasRemovedBetweenReservations() throws IOException {
    Path locks = tmp.resolve("gone/locks");
    CpuReservations reservations =
        new CpuReservations(locks, ChannelLockFile::new, System::currentTimeMillis);
    reservations.tryReserve(1).orElseThrow().close();
    CpuReservations nativeFiles = CpuReservations.inDirectory(tmp.resolve("gone2/locks"));
    nativeFiles.tryReserve(1).orElseThrow().close();
    for (Path dir : new Path[] {locks, tmp.resolve("gone2/locks")}) {
      try (var files = Files.list(dir)) {
        for (Path f : files.toList()) {
          Files.delete(f);
        }
      }
      Files.delete(dir);
    }

    ReservationResult channel = reservations.tryReserve(1);
    assertThat(channel.status()).isEqualTo(ReservationStatus.RESERVED);
    channel.orElseThrow().close();
    ReservationResult again = nativeFiles.tryReserve(1);
    assertThat(again.status()).as(again.reason()).isEqualTo(ReservationStatus.RESERVED);
    assertThat(again.orElseThrow().lockFile()).exists();
    again.orElseThrow().close();
  }
}
