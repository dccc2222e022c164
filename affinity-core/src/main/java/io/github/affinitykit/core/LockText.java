package io.github.affinitykit.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Locale;

/**
 * The text of {@code cpu-<N>.lock} files, in OpenHFT's format: the holder's pid on the first line,
 * the time it took the lock on the second ({@code 1234\n2026.01.31 at 12:00:00 UTC}). Any process
 * can write anything into such a file, so its text reaches a reason or a log only through {@link
 * #sanitise(byte[], boolean)}: printable characters only, the rest escaped, bounded length.
 *
 * <p>Thread safety: stateless.
 */
final class LockText {
  /** At most this many characters of a file's text are shown, escapes included. */
  static final int MAX_SHOWN_CHARS = 96;

  private static final DateTimeFormatter SINCE =
      DateTimeFormatter.ofPattern("yyyy.MM.dd 'at' HH:mm:ss z", Locale.ROOT);

  private LockText() {}

  /** The text a holder writes: {@code <pid>\n<yyyy.MM.dd 'at' HH:mm:ss z>}, as OpenHFT does. */
  static String forHolder(long pid, ZonedDateTime since) {
    return pid + "\n" + since.format(SINCE);
  }

  /**
   * Makes bytes read from a file safe to show on one line (or, with {@code keepNewlines}, one line
   * per line): UTF-8 decoded; {@code \n}, {@code \r}, {@code \t} and {@code \\} escaped as in Java;
   * other control, format, separator, private-use and unassigned characters as {@code \}{@code
   * u{XXXX}}; bytes that are not UTF-8 as {@code \xNN}; cut at {@link #MAX_SHOWN_CHARS} characters
   * with {@code ...(N bytes)}; leading and trailing white space removed.
   */
  static String sanitise(byte[] bytes, boolean keepNewlines) {
    CharsetDecoder utf8 =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer chars = CharBuffer.allocate(bytes.length + 1);
    StringBuilder out = new StringBuilder();
    while (in.hasRemaining() && out.length() < MAX_SHOWN_CHARS) {
      CoderResult r = utf8.decode(in, chars, true);
      chars.flip();
      chars.codePoints().forEach(c -> escape(out, c, keepNewlines));
      chars.clear();
      if (r.isError()) {
        for (int i = 0; i < r.length(); i++) {
          out.append(String.format(Locale.ROOT, "\\x%02x", in.get() & 0xff));
        }
      }
    }
    String shown = out.toString().strip();
    if (in.hasRemaining() || shown.length() > MAX_SHOWN_CHARS) {
      int end = Math.min(shown.length(), MAX_SHOWN_CHARS);
      return shown.substring(0, end) + "...(" + bytes.length + " bytes)";
    }
    return shown;
  }

  private static void escape(StringBuilder out, int c, boolean keepNewlines) {
    switch (c) {
      case '\n':
        out.append(keepNewlines ? "\n" : "\\n");
        return;
      case '\r':
        out.append("\\r");
        return;
      case '\t':
        out.append("\\t");
        return;
      case '\\':
        out.append("\\\\");
        return;
      default:
        if (printable(c)) {
          out.appendCodePoint(c);
        } else {
          out.append(String.format(Locale.ROOT, "\\u{%04X}", c));
        }
    }
  }

  private static boolean printable(int c) {
    switch (Character.getType(c)) {
      case Character.CONTROL:
      case Character.FORMAT:
      case Character.SURROGATE:
      case Character.PRIVATE_USE:
      case Character.UNASSIGNED:
      case Character.LINE_SEPARATOR:
      case Character.PARAGRAPH_SEPARATOR:
        return false;
      default:
        return c != 0xFFFD;
    }
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
   * Describes a holder: {@code pid 123 since 2026.01.31 at ...} from a well-formed text; {@code pid
   * 123 (lock file text: "...")} when only the kernel named it; the sanitised text otherwise.
   */
  static String describeHolder(long pid, byte[] text) {
    if (pid > 0 && pid == pidOf(text)) {
      int newline = indexOf(text, (byte) '\n');
      String since =
          newline < 0 ? "" : sanitise(Arrays.copyOfRange(text, newline + 1, text.length), false);
      return "pid " + pid + (since.isEmpty() ? "" : " since " + since);
    }
    String shown = sanitise(text, false);
    String quoted = shown.isEmpty() ? "empty" : "\"" + shown + "\"";
    return (pid > 0 ? "pid " + pid : "an unknown process") + " (lock file text: " + quoted + ")";
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
