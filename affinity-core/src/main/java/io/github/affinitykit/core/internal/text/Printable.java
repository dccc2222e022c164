package io.github.affinitykit.core.internal.text;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Text that came from outside (a lock file any process may write, a sysfs or {@code /proc} file, a
 * command-line value) made safe for a reason, an exception message or a log line: printable
 * characters only, the rest escaped, bounded length.
 *
 * <p>Thread safety: stateless.
 */
public final class Printable {
  /** At most this many characters of outside text are shown, escapes included. */
  public static final int MAX_SHOWN_CHARS = 96;

  private Printable() {}

  /**
   * Returns {@code text} itself when it is short and printable, else {@link #of(byte[], boolean)}
   * of its UTF-8 bytes on one line (so positions in a message still point into the text shown).
   */
  public static String of(String text) {
    if (text.length() <= MAX_SHOWN_CHARS
        && text.codePoints().allMatch(c -> c != '\\' && printable(c))) {
      return text;
    }
    return of(text.getBytes(StandardCharsets.UTF_8), false);
  }

  /**
   * Makes bytes read from a file safe to show on one line (with {@code keepNewlines}, one line per
   * line): UTF-8 decoded; control, format, separator, private-use and unassigned characters escaped
   * as in Java; bytes that are not UTF-8 as {@code \xNN}; cut at {@link #MAX_SHOWN_CHARS}
   * characters; white space stripped.
   */
  public static String of(byte[] bytes, boolean keepNewlines) {
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
}
