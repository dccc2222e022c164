package io.github.affinitykit.core.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
 * What makes a reservation cheap without weakening it: {@code statx} reads what the JDK reads, the
 * holder text is formatted once per second, a lock file that already holds the text is not written
 * again (nor truncated unless its old text was longer), and the directory is made once but made
 * again when it disappears.
 */
@EnabledOnOs(OS.LINUX)
class FastReservationPathTest {
  private static final FileTime OLD = FileTime.from(1_000_000, TimeUnit.SECONDS);

  @TempDir Path tmp;

  private static FileStat jdk(Path path) throws IOException {
    Map<String, Object> a =
        Files.readAttributes(path, "unix:dev,ino,mode,nlink", LinkOption.NOFOLLOW_LINKS);
    return new FileStat(
        (Long) a.get("dev"),
        (Long) a.get("ino"),
        (Integer) a.get("mode"),
        (Integer) a.get("nlink"));
  }

  @Test
  void shouldReadWithStatxWhatTheJdkReads() throws IOException {
    assumeTrue(StatCalls.usable(), "statx through JNA is not available here");
    Path file = Files.writeString(tmp.resolve("file"), "x");
    Path link = Files.createSymbolicLink(tmp.resolve("link"), file);
    Path hard = Files.createLink(tmp.resolve("hard"), file);
    for (Path p : new Path[] {file, link, hard, tmp}) {
      assertThat(FileStat.lstat(p)).as(p.toString()).contains(jdk(p));
    }
    assertThat(FileStat.lstat(tmp.resolve("missing"))).isEmpty();
    int fd = LockCalls.openNoFollow(file.toString(), false);
    try {
      assertThat(FileStat.ofDescriptor(fd)).isEqualTo(jdk(file));
    } finally {
      LockCalls.close(fd);
    }
  }

  @Test
  void shouldFormatTheHolderTextOncePerSecond() {
    AtomicLong millis = new AtomicLong(1_769_860_800_100L);
    HolderText holder = new HolderText(42, millis::get);
    byte[] first = holder.now().bytes();
    ZonedDateTime since =
        ZonedDateTime.ofInstant(Instant.ofEpochMilli(millis.get()), ZoneId.systemDefault());
    assertThat(holder.text()).isEqualTo(LockText.forHolder(42, since));
    assertThat(first).isEqualTo(holder.text().getBytes(StandardCharsets.UTF_8));

    millis.addAndGet(800);
    assertThat(holder.now().bytes()).isSameAs(first);
    millis.addAndGet(200);
    assertThat(holder.now().bytes()).isNotSameAs(first).isNotEqualTo(first);
  }

  @Test
  void shouldNotRewriteALockFileThatAlreadyHoldsTheText() throws IOException {
    Path path = Files.writeString(tmp.resolve("cpu-1.lock"), "42\nsame");
    Files.setLastModifiedTime(path, OLD);
    NativeLockFile file = new NativeLockFile(path);
    assertThat(file.tryLock(1)).isNull();
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
  }

  @Test
  void shouldMakeTheDirectoryAgainWhenItWasRemovedBetweenReservations() throws IOException {
    Path locks = tmp.resolve("gone/locks");
    CpuReservations reservations = CpuReservations.withChannelFiles(locks);
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
