package io.github.affinitykit.core.reservation;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.function.LongSupplier;

/**
 * The text this JVM writes into the lock files it takes ({@link LockText#forHolder(long,
 * ZonedDateTime)}: pid and time to the second), formatted and encoded once per second rather than
 * once per reservation. The time zone is the default one when the second's text is formatted.
 *
 * <p>Thread safety: not thread-safe; {@link CpuReservations} calls it under its monitor.
 */
final class HolderText {
  private final long pid;
  private final LongSupplier clockMillis;
  private long second = Long.MIN_VALUE;
  private String text = "";
  private byte[] bytes = new byte[0];

  /**
   * Texts for {@code pid} on a clock.
   *
   * @param pid the holder's process id
   * @param clockMillis the wall clock, in milliseconds since the epoch
   */
  HolderText(long pid, LongSupplier clockMillis) {
    this.pid = pid;
    this.clockMillis = clockMillis;
  }

  /** The text of this process on the system clock. */
  static HolderText ofThisProcess() {
    return new HolderText(ProcessHandle.current().pid(), System::currentTimeMillis);
  }

  /** Brings the text to the current second; returns this. */
  HolderText now() {
    long millis = clockMillis.getAsLong();
    long s = Math.floorDiv(millis, 1000);
    if (s != second) {
      ZonedDateTime since =
          ZonedDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneId.systemDefault());
      text = LockText.forHolder(pid, since);
      bytes = text.getBytes(StandardCharsets.UTF_8);
      second = s;
    }
    return this;
  }

  /** The text as of the last {@link #now()}. */
  String text() {
    return text;
  }

  /** The text's UTF-8 bytes as of the last {@link #now()}; not to be modified. */
  byte[] bytes() {
    return bytes;
  }
}
