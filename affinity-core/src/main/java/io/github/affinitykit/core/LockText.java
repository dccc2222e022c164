package io.github.affinitykit.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The text of {@code cpu-<N>.lock} files, in OpenHFT's format: the holder's pid on the first line,
 * the time it took the lock on the second ({@code 1234\n2026.01.31 at 12:00:00 UTC}). All reads and
 * writes go through a channel the caller already has open.
 *
 * <p>Thread safety: stateless.
 */
final class LockText {
  private static final int MAX_TEXT_BYTES = 256;

  private static final DateTimeFormatter SINCE =
      DateTimeFormatter.ofPattern("yyyy.MM.dd 'at' HH:mm:ss z", Locale.ROOT);

  private LockText() {}

  /** The text a holder writes: {@code <pid>\n<yyyy.MM.dd 'at' HH:mm:ss z>}, as OpenHFT does. */
  static String forHolder(long pid, ZonedDateTime since) {
    return pid + "\n" + since.format(SINCE);
  }

  /** Replaces the file's content with {@code text}. */
  static void write(FileChannel channel, String text) throws IOException {
    channel.truncate(0);
    ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    long position = 0;
    while (bytes.hasRemaining()) {
      position += channel.write(bytes, position);
    }
  }

  /** Reads a lock file's text through an open channel: positional, needs no lock. */
  static String readQuietly(FileChannel channel) {
    try {
      return read(channel);
    } catch (IOException e) {
      return "";
    }
  }

  /** Reads the first bytes of a lock file through an open channel. */
  static String read(FileChannel channel) throws IOException {
    ByteBuffer bytes = ByteBuffer.allocate(MAX_TEXT_BYTES);
    channel.read(bytes, 0);
    return new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8).strip();
  }

  /** The pid on the first line of a lock file's text (OpenHFT's format), or -1. */
  static long pidOf(String text) {
    String first = text.lines().findFirst().orElse("").strip();
    try {
      return Long.parseLong(first);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Describes a holder from its lock file text: {@code pid 123 since 2026.01.31 at ...}. */
  static String describeHolder(String text) {
    long pid = pidOf(text);
    if (pid < 0) {
      return text.isEmpty() ? "an unknown process (empty lock file)" : "\"" + text + "\"";
    }
    String since = text.lines().skip(1).findFirst().map(s -> " since " + s.strip()).orElse("");
    return "pid " + pid + since;
  }

  /** Names an I/O failure: {@code FileSystemException (Not a directory)}. */
  static String describe(IOException e) {
    String reason = e instanceof FileSystemException ? ((FileSystemException) e).getReason() : null;
    String kind = e.getClass().getSimpleName();
    if (e instanceof FileSystemException) {
      return reason == null ? kind : kind + " (" + reason + ")";
    }
    return kind + ": " + e.getMessage();
  }
}
