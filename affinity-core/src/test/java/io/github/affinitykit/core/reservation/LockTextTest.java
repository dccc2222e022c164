package io.github.affinitykit.core.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.internal.text.Printable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

/** Lock file text: OpenHFT's format, and anything else made safe to show. */
public class LockTextTest {
  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Every byte value once: what a garbage lock file may hold. */
  public static byte[] allBytes() {
    byte[] b = new byte[256];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) i;
    }
    return b;
  }

  @Test
  public void shouldShowTheTextAsWhatTheFileClaimsBesideThePidTheKernelNamed() {
    byte[] openHft = bytes("123\n2026.01.31 at 12:00:00 UTC");
    assertThat(LockText.describeHolder(123, openHft))
        .isEqualTo("pid 123 (the file claims pid 123 since 2026.01.31 at 12:00:00 UTC)");
    assertThat(LockText.describeHolder(-1, openHft))
        .isEqualTo("another process (the file claims pid 123 since 2026.01.31 at 12:00:00 UTC)");
    assertThat(LockText.describeHolder(-1, bytes("123")))
        .isEqualTo("another process (the file claims pid 123)");
    assertThat(LockText.describeHolder(-1, new byte[0]))
        .isEqualTo("another process (the file is empty)");
    assertThat(LockText.describeHolder(-1, bytes("garbage")))
        .isEqualTo("another process (the file says \"garbage\")");
    assertThat(LockText.describeHolder(77, openHft))
        .isEqualTo("pid 77 (the file claims pid 123 since 2026.01.31 at 12:00:00 UTC)");
    assertThat(LockText.describeHolder(-1, bytes("1\n\u001b[2J\u0007 since")))
        .isEqualTo("another process (the file claims pid 1 since \\u{001B}[2J\\u{0007} since)");
    assertThat(LockText.describe(new IOException("boom"))).isEqualTo("IOException: boom");
    assertThat(
            LockText.forHolder(123, ZonedDateTime.of(2026, 1, 31, 12, 0, 5, 0, ZoneId.of("UTC"))))
        .isEqualTo("123\n2026.01.31 at 12:00:05 UTC");
  }

  @Test
  public void shouldReadOnlyAPlainDecimalPidFromTheFirstLine() {
    assertThat(LockText.pidOf(bytes(" 42 \nx"))).isEqualTo(42);
    assertThat(LockText.pidOf(bytes("-42"))).isEqualTo(-1);
    assertThat(LockText.pidOf(bytes("4\u00002"))).isEqualTo(-1);
    assertThat(LockText.pidOf(bytes("99999999999999999999"))).isEqualTo(-1);
    assertThat(LockText.pidOf(new byte[0])).isEqualTo(-1);
  }

  @Test
  public void shouldEscapeEveryControlCharacterAndBoundTheLengthOfGarbage() {
    String shown = Printable.of(allBytes(), false);

    assertThat(shown.codePoints()).noneMatch(Character::isISOControl);
    assertThat(shown).hasSizeLessThanOrEqualTo(Printable.MAX_SHOWN_CHARS + 20);
    assertThat(shown).startsWith("\\u{0000}\\u{0001}").endsWith("...(256 bytes)");
    assertThat(Printable.of(bytes("a\tb\r\nc\\d"), false)).isEqualTo("a\\tb\\r\\nc\\\\d");
    assertThat(Printable.of(bytes("1\n2"), true)).isEqualTo("1\n2");
  }

  @Test
  public void shouldShowBytesThatAreNotUtf8AsHexAndKeepPrintableUnicode() {
    byte[] mixed = {'o', 'k', (byte) 0xff, (byte) 0xc3, ' ', (byte) 0xc3, (byte) 0xa9};
    assertThat(Printable.of(mixed, false)).isEqualTo("ok\\xff\\xc3 é");
    assertThat(Printable.of(bytes("x\u202Ey\u2028z\uFFFD"), false))
        .isEqualTo("x\\u{202E}y\\u{2028}z\\u{FFFD}");
    assertThat(Printable.of(bytes("  δοκιμή  "), false)).isEqualTo("δοκιμή");
  }
}
