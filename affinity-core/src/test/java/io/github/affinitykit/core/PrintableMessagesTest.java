package io.github.affinitykit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.cpu.CpuSetFormatException;
import org.junit.jupiter.api.Test;

/**
 * Text read from files and the environment reaches exception messages and the doctor's problems
 * only in printable form: a cpu list from {@code AFFINITYKIT_POOL} or sysfs, a hex mask word (an
 * {@code isolcpus} flag from {@code /proc/cmdline}: affinity-host-report's {@code
 * KernelCmdlineTest}).
 */
class PrintableMessagesTest {
  private static final String HOSTILE = "1\u001b[2J\u0007,\r\n2\u202e";

  @Test
  void shouldEscapeControlCharactersOfACpuListInItsErrorMessage() {
    assertThatThrownBy(() -> CpuSet.parse(HOSTILE))
        .isInstanceOf(CpuSetFormatException.class)
        .satisfies(e -> assertPrintable(e.getMessage()))
        .hasMessageContaining("\\u{001B}[2J")
        .extracting(e -> ((CpuSetFormatException) e).input())
        .isEqualTo(HOSTILE); // the accessor keeps the input as it was
  }

  @Test
  void shouldEscapeControlCharactersOfAMaskWordInItsErrorMessage() {
    assertThatThrownBy(() -> CpuSet.parseMask("ff,\u0007zz"))
        .isInstanceOf(CpuSetFormatException.class)
        .satisfies(e -> assertPrintable(e.getMessage()))
        .hasMessageContaining("\\u{0007}zz");
  }

  @Test
  void shouldCutAVeryLongCpuListInItsErrorMessage() {
    String list = "1,".repeat(5_000) + "x";
    assertThatThrownBy(() -> CpuSet.parse(list))
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(300).contains("(10001 bytes)"));
  }

  @Test
  void shouldKeepAPrintableCpuListAsItWas() {
    assertThatThrownBy(() -> CpuSet.parse(" 5-1"))
        .hasMessageStartingWith("cpu list \" 5-1\": at position 1");
  }

  private static void assertPrintable(String message) {
    assertThat(message.codePoints())
        .allSatisfy(
            c ->
                assertThat(Character.isISOControl(c) || Character.getType(c) == Character.FORMAT)
                    .as("U+%04X in %s", c, message)
                    .isFalse());
  }
}
