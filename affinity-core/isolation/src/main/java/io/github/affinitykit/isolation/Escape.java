package io.github.affinitykit.isolation;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The journal's field encoding: UTF-8 bytes, each byte outside printable ASCII and each of space,
 * {@code %} and DEL written as {@code %XX}; the empty text is {@code %}. A field then holds no
 * space or line break, and file contents (trailing newlines included) survive exactly.
 *
 * <p>Thread safety: stateless.
 */
final class Escape {
  private static final String EMPTY = "%";

  private Escape() {}

  static String encode(String text) {
    if (text.isEmpty()) {
      return EMPTY;
    }
    StringBuilder sb = new StringBuilder();
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c <= ' ' || c >= 0x7f || c == '%') {
        sb.append('%')
            .append(Character.forDigit(c >> 4, 16))
            .append(Character.forDigit(c & 15, 16));
      } else {
        sb.append((char) c);
      }
    }
    return sb.toString();
  }

  /**
   * Decodes a field.
   *
   * @throws IllegalArgumentException if a {@code %} is not followed by two hex digits
   */
  static String decode(String field) {
    if (field.equals(EMPTY)) {
      return "";
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c != '%') {
        out.write(c);
        continue;
      }
      int hi = i + 2 < field.length() ? Character.digit(field.charAt(i + 1), 16) : -1;
      int lo = hi < 0 ? -1 : Character.digit(field.charAt(i + 2), 16);
      if (lo < 0) {
        throw new IllegalArgumentException(
            "journal field: " + field + " (expected: % followed by two hex digits)");
      }
      out.write(hi << 4 | lo);
      i += 2;
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
