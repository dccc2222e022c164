package io.github.affinitykit.core.reservation;

import io.github.affinitykit.core.internal.text.Printable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Locale;

/**
 * The text of {@code cpu-<N>.lock} files in OpenHFT's format ({@code 1234\n2026.01.31 at 12:00:00
 * UTC}). Anyone may write such a file, so its text reaches a reason only sanitised ({@link
 * Printable#of(byte[], boolean)}) and as a claim ({@link #claim}): nothing is decided on it.
 *
 * <p>Thread safety: stateless.
 */
final class LockText {
  private static final DateTimeFormatter SINCE =
      DateTimeFormatter.ofPattern("yyyy.MM.dd 'at' HH:mm:ss z", Locale.ROOT);

  private LockText() {}

  /** The text a holder writes: {@code <pid>\n<yyyy.MM.dd 'at' HH:mm:ss z>}, as OpenHFT does. */
  static String forHolder(long pid, ZonedDateTime since) {
    return pid + "\n" + since.format(SINCE);
  }

  /** The pid on the first line of a lock file's text (OpenHFT's format), or -1. */
  static long pidOf(byte[] text) {
    int newline = indexOf(text, (byte) '\n');
    String first =
        new String(text, 0, newline < 0 ? text.length : newline, StandardCharsets.US_ASCII).strip();
    if (first.isEmpty() || first.length() > 19 || !first.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    try {
      return Long.parseLong(first);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Describes a holder: the kernel's pid ({@code pid > 0}) or {@code another process}, then the
   * file's claim: {@code pid 77 (the file claims pid 123 since ...)}.
   */
  static String describeHolder(long pid, byte[] text) {
    return (pid > 0 ? "pid " + pid : "another process") + " (" + claim(text) + ")";
  }

  /** What a lock file's text claims, sanitised and bounded: never a fact about the holder. */
  static String claim(byte[] text) {
    long claimed = pidOf(text);
    if (claimed > 0) {
      int newline = indexOf(text, (byte) '\n');
      String since =
          newline < 0
              ? ""
              : Printable.of(Arrays.copyOfRange(text, newline + 1, text.length), false);
      return "the file claims pid " + claimed + (since.isEmpty() ? "" : " since " + since);
    }
    String shown = Printable.of(text, false);
    return shown.isEmpty() ? "the file is empty" : "the file says \"" + shown + "\"";
  }

  private static int indexOf(byte[] bytes, byte b) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return -1;
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
