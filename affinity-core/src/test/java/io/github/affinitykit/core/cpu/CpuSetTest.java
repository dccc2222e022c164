package io.github.affinitykit.core.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.github.affinitykit.core.internal.text.Printable;
import java.util.BitSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Examples of the kernel's cpu-list and cpu-mask grammars, and {@link CpuSet}'s edges. */
class CpuSetTest {
  /** {@code nbits} for {@link CpuSet#parse(String)}: no cpu count. */
  private static final int NO_COUNT = -1;

  private static final int MAX = CpuSet.MAX_CPUS;

  private static CpuSet parse(String input, int nbits) {
    return nbits == NO_COUNT ? CpuSet.parse(input) : CpuSet.parse(input, nbits);
  }

  /** Display names with control characters spelled out. */
  private static String show(String s) {
    return "\""
        + s.replace("\n", "\\n")
            .replace("\t", "\\t")
            .replace("\r", "\\r")
            .replace("\f", "\\f")
            .replace("\u000b", "\\v")
            .replace("\0", "\\0")
        + "\"";
  }

  @Nested
  class ListGrammar {
    static Stream<Arguments> lists() {
      return Stream.of(
          // empty lists and separators only
          arguments("", 8, ""),
          arguments("", NO_COUNT, ""),
          arguments("  \t", 8, ""),
          arguments(",,,", 8, ""),
          arguments("\n", 8, ""),
          arguments("\0", 8, ""),
          // a and a-b
          arguments("0", 1, "0"),
          arguments("5", 8, "5"),
          arguments("007", 8, "7"),
          arguments("0-3", 8, "0-3"),
          arguments("3-3", 8, "3"),
          arguments("0,2,4", 8, "0,2,4"),
          arguments("3,1,2", 8, "1-3"),
          arguments("0-5,3-7", 8, "0-7"),
          // a-b:used/group
          arguments("0-9:2/5", 10, "0-1,5-6"),
          arguments("1-5:1/1", 8, "1-5"),
          arguments("0-9:0/5", 10, ""),
          arguments("0-9:5/5", 10, "0-9"),
          arguments("2-9:3/4", 10, "2-4,6-8"),
          arguments("0-8:2/4", 9, "0-1,4-5,8"),
          arguments("0-1023:2/256", 1024, "0-1,256-257,512-513,768-769"),
          arguments("9-38:4/10", 64, "9-12,19-22,29-32"),
          arguments("0-3:4294967295/4294967295", 8, "0-3"),
          // all (any case, may take a pattern) and N
          arguments("all", 8, "0-7"),
          arguments("ALL", 8, "0-7"),
          arguments("aLl:1/2", 8, "0,2,4,6"),
          arguments("all:2/4", 10, "0-1,4-5,8-9"),
          arguments("all", 1, "0"),
          arguments("N", 8, "7"),
          arguments("0-N", 8, "0-7"),
          arguments("N-N", 1, "0"),
          arguments("3-N", 4, "3"),
          arguments("0-N:1/N", 8, "0,7"),
          arguments("N-N:N/N", 8, "7"),
          // separators: ',' or whitespace, repeated, leading and trailing
          arguments("1 2\t3", 8, "1-3"),
          arguments("1,\t2 ,\r\n 3\n", 8, "1-3"),
          arguments("\f1\u000b2\r", 8, "1-2"),
          arguments(",1,,2,", 8, "1-2"),
          arguments(" \t0-1 \t", 8, "0-1"),
          // NUL ends the string; so does '\n' right after a region without a pattern, while a
          // '\n' after a separator or after a pattern is whitespace (bitmap_parse_region)
          arguments("1\0garbage", 8, "1"),
          arguments("1,\0x", 8, "1"),
          arguments("0-3\n5", 8, "0-3"),
          arguments("0-3\nx", 8, "0-3"),
          arguments("N\n5", 8, "7"),
          arguments("0-3,\n5", 8, "0-3,5"),
          arguments("0-3 \n5", 8, "0-3,5"),
          arguments("0-3:1/2\n5", 8, "0,2,5"),
          arguments("all:1/2\n5", 8, "0,2,4-6"),
          // after a pattern the kernel reads the next region without a separator
          arguments("0-3:1/2N", 8, "0,2,7"),
          // the kernel's u32 start += group wraps around 2^32
          arguments("1-7:1/4294967295", 8, "0-1"),
          arguments("5-7:3/4294967294", 8, "1-7"),
          // no ceiling below MAX_CPUS
          arguments("1023-1100,4095", NO_COUNT, "1023-1100,4095"),
          arguments("1048575", NO_COUNT, "1048575"),
          arguments("0-4095", 4096, "0-4095"));
    }

    @ParameterizedTest(name = "{index}: {0} nbits {1} = {2}")
    @MethodSource("lists")
    void shouldParseTheKernelGrammarWhenTheListIsValid(String input, int nbits, String expected) {
      assertThat(parse(input, nbits)).as(show(input)).hasToString(expected);
    }

    @Test
    void shouldPrintRunsAsRangesWhenFormatting() {
      assertThat(CpuSet.of(0, 1, 2, 4, 6, 7)).hasToString("0-2,4,6-7");
      assertThat(CpuSet.of(5)).hasToString("5");
      assertThat(CpuSet.of(63, 64)).hasToString("63-64");
      assertThat(CpuSet.empty()).hasToString("");
      assertThat(CpuSet.range(0, MAX - 1)).hasToString("0-1048575");
    }

    @Test
    void shouldKeepIdsAboveTheOldCeilingsWhenRoundTripping() {
      CpuSet set = CpuSet.parse("1023-1100,4095");

      assertThat(set.size()).isEqualTo(79);
      assertThat(set.first()).isEqualTo(1023);
      assertThat(set.last()).isEqualTo(4095);
      assertThat(set.contains(1100)).isTrue();
      assertThat(set.contains(1101)).isFalse();
      assertThat(CpuSet.parse(set.toString())).isEqualTo(set);
      assertThat(CpuSet.parse(set.toString(), 4096)).isEqualTo(set);
      assertThat(CpuSet.parseMask(set.toMask(4096))).isEqualTo(set);
      assertThat(CpuSet.parseMask(set.toMask(5000))).isEqualTo(set);
      assertThat(CpuSet.range(0, MAX - 1).size()).isEqualTo(MAX);
    }
  }

  @Nested
  class ListErrors {
    static Stream<Arguments> errors() {
      return Stream.of(
          // invalid
          arguments("5-2", 16, 0, "range 5-2 (expected: start <= end)"),
          arguments("0-9:3/2", 16, 0, "used 3 > group 2 (expected: used <= group)"),
          arguments("0-9:1/0", 16, 0, "group size 0 (expected: group > 0)"),
          arguments("3x", 8, 1, "expected: '-', ',' or whitespace after a cpu number"),
          arguments("1..3", 8, 1, "expected: '-'"),
          arguments("5:1/2", 8, 1, "expected: '-'"),
          arguments("1\u00a02", 8, 1, "expected: '-'"),
          arguments("0x10", 8, 1, "expected: '-'"),
          arguments("1,2,3x", 8, 5, "expected: '-'"),
          arguments("1-", 8, 2, "expected: a decimal cpu number or N"),
          arguments("-1", 8, 0, "expected: a decimal cpu number or N"),
          arguments("+1", 8, 0, "expected: a decimal cpu number or N"),
          arguments("1 - 3", 8, 2, "expected: a decimal cpu number or N"),
          arguments("n", 8, 0, "expected: a decimal cpu number or N"),
          arguments("al", 8, 0, "expected: a decimal cpu number or N"),
          arguments("0-3:x/2", 8, 4, "expected: a decimal cpu number or N"),
          arguments("0-3:1/", 8, 6, "expected: a decimal cpu number or N"),
          arguments("0-3:1/2x", 8, 7, "expected: a decimal cpu number or N"),
          arguments("0-3:1", 8, 5, "expected: '/' between used and group size"),
          arguments("0-3x", 8, 3, "expected: ':', ',' or whitespace after a range"),
          arguments("all5", 8, 3, "expected: ':', ',' or whitespace after a range"),
          // the kernel's u32 end + 1 wraps to a group of 0: -EINVAL, not -ERANGE
          arguments("4294967295", 8, 0, "4294967295"),
          arguments("1,0-4294967295", 8, 2, "4294967295"),
          // no cpu count: N and all
          arguments("N", NO_COUNT, 0, "'N' needs the number of possible cpus"),
          arguments("0-N", NO_COUNT, 2, "'N' needs the number of possible cpus"),
          arguments("all", NO_COUNT, 0, "'all' needs the number of possible cpus"),
          // out of range
          arguments("8", 8, 0, "cpu 8 out of range (expected: < 8 possible cpus)"),
          arguments("0-8", 8, 0, "cpu 8 out of range"),
          arguments("0,2-8:1/2", 8, 2, "cpu 8 out of range"),
          arguments("0-99:1/2x", 8, 0, "cpu 99 out of range"),
          arguments("1048576", NO_COUNT, 0, "cpu 1048576 out of range (expected: < 1048576)"),
          // overflow
          arguments("4294967296", 8, 0, "number 4294967296 overflows (expected: <= 2^32-1)"),
          arguments("4294967296", NO_COUNT, 0, "overflows"),
          arguments("99999999999999999999999", 8, 0, "overflows"),
          arguments("0-4294967296", 8, 2, "overflows"),
          arguments("0-3:1/4294967296", 8, 6, "overflows"));
    }

    @ParameterizedTest(name = "{index}: {0} nbits {1} at {2}: {3}")
    @MethodSource("errors")
    void shouldRejectWithPositionAndRuleWhenTheListIsInvalid(
        String input, int nbits, int position, String rule) {
      CpuSetFormatException e =
          catchThrowableOfType(CpuSetFormatException.class, () -> parse(input, nbits));

      assertThat(e).as(show(input)).isNotNull();
      assertThat(e.input()).isEqualTo(input);
      assertThat(e.position()).as(show(input) + ": " + e.getMessage()).isEqualTo(position);
      assertThat(e.rule()).contains(rule);
      assertThat(e.getMessage())
          .contains("\"" + Printable.of(input) + "\"", "position " + position, e.rule())
          .startsWith("cpu list");
    }

    @Test
    void shouldSpellOutInputPositionAndRuleWhenFormattingTheMessage() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> CpuSet.parse("5-2"))
          .isInstanceOf(CpuSetFormatException.class)
          .withMessage("cpu list \"5-2\": at position 0: range 5-2 (expected: start <= end)");
    }

    @Test
    void shouldRejectNbitsWhenNotPositiveOrAboveMaxCpus() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> CpuSet.parse("0", 0))
          .withMessageContaining("nbits: 0");
      assertThatIllegalArgumentException()
          .isThrownBy(() -> CpuSet.parse("0", -3))
          .withMessageContaining("nbits: -3");
      assertThatIllegalArgumentException()
          .isThrownBy(() -> CpuSet.parse("0", MAX + 1))
          .withMessageContaining("nbits: 1048577");
      assertThat(CpuSet.parse("N", MAX).first()).isEqualTo(MAX - 1);
    }

    @Test
    void shouldNameTheArgumentWhenInputIsNull() {
      assertThatNullPointerException().isThrownBy(() -> CpuSet.parse(null)).withMessage("list");
      assertThatNullPointerException().isThrownBy(() -> CpuSet.parse(null, 8)).withMessage("list");
      assertThatNullPointerException().isThrownBy(() -> CpuSet.parseMask(null)).withMessage("mask");
    }
  }

  @Nested
  class Mask {
    static Stream<Arguments> masks() {
      return Stream.of(
          arguments("", 1, "0"),
          arguments("0", 1, "1"),
          arguments("0-3", 4, "f"),
          arguments("2", 4, "4"),
          arguments("4", 5, "10"),
          arguments("0-18", 24, "07ffff"),
          arguments("", 32, "00000000"),
          arguments("31", 32, "80000000"),
          arguments("0", 33, "0,00000001"),
          arguments("32", 33, "1,00000000"),
          arguments("0-39", 40, "ff,ffffffff"),
          arguments("0-63", 64, "ffffffff,ffffffff"),
          arguments("0,1099", 1100, "800," + "00000000,".repeat(33) + "00000001"),
          arguments("1023-1099", 1100, "fff,ffffffff,ffffffff,80000000" + ",00000000".repeat(31)));
    }

    @ParameterizedTest(name = "{index}: {0} nbits {1} = {2}")
    @MethodSource("masks")
    void shouldPrintTheKernelMaskWhenGivenNbits(String list, int nbits, String mask) {
      CpuSet set = CpuSet.parse(list);

      assertThat(set.toMask(nbits)).isEqualTo(mask);
      assertThat(CpuSet.parseMask(mask)).isEqualTo(set);
      assertThat(CpuSet.parseMask(mask + "\n")).isEqualTo(set);
    }

    @Test
    void shouldRejectNbitsWhenTooSmallForTheSet() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> CpuSet.parse("0-8").toMask(8))
          .withMessageContaining("nbits: 8")
          .withMessageContaining("8");
      assertThatIllegalArgumentException()
          .isThrownBy(() -> CpuSet.empty().toMask(0))
          .withMessageContaining("nbits: 0");
    }

    static Stream<Arguments> validMasks() {
      return Stream.of(
          arguments("", ""),
          arguments("\n", ""),
          arguments("0", ""),
          arguments("f", "0-3"),
          arguments("ff,ffffffff", "0-39"),
          arguments("FF,FFFFFFFF\n", "0-39"),
          arguments("1,0", "32"),
          arguments("80000000,0", "63"),
          arguments("00000001,00000000,00000000", "64"),
          arguments("0000000a", "1,3"));
    }

    @ParameterizedTest(name = "{index}: {0} = {1}")
    @MethodSource("validMasks")
    void shouldParseHexWordsWhenTheMaskIsValid(String mask, String list) {
      assertThat(CpuSet.parseMask(mask)).as(show(mask)).hasToString(list);
    }

    static Stream<Arguments> invalidMasks() {
      return Stream.of(
          arguments("ff,", 3),
          arguments(",ff", 0),
          arguments("ff,,ff", 3),
          arguments("123456789", 0),
          arguments("1,123456789", 2),
          arguments("fg", 1),
          arguments("ff\n\n", 2),
          arguments(" ff", 0),
          arguments("0x1", 1),
          arguments("-1", 0),
          arguments("1" + ",00000000".repeat(MAX / 32), 0));
    }

    @ParameterizedTest(name = "{index}: {0} at {1}")
    @MethodSource("invalidMasks")
    void shouldRejectWithPositionWhenTheMaskIsInvalid(String mask, int position) {
      CpuSetFormatException e =
          catchThrowableOfType(CpuSetFormatException.class, () -> CpuSet.parseMask(mask));

      assertThat(e).as(show(mask)).isNotNull();
      assertThat(e.input()).isEqualTo(mask);
      assertThat(e.position()).isEqualTo(position);
      assertThat(e.getMessage())
          .startsWith("cpu mask \"" + Printable.of(mask) + "\"")
          .contains("position " + position, e.rule());
    }

    @Test
    void shouldAcceptTheHighestCpuWhenTheMaskIsAtMaxCpus() {
      String mask = "80000000" + ",00000000".repeat(MAX / 32 - 1);

      assertThat(CpuSet.parseMask(mask)).isEqualTo(CpuSet.of(MAX - 1));
      assertThat(CpuSet.of(MAX - 1).toMask(MAX)).isEqualTo(mask);
      assertThat(CpuSet.parseMask("0," + mask)).isEqualTo(CpuSet.of(MAX - 1));
    }
  }

  @Nested
  class Edges {
    @Test
    void shouldNameTheValueWhenAnIdIsOutOfRange() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> CpuSet.of(3, -1))
          .withMessage("cpu: -1 (expected: >= 0 and < 1048576)");
      assertThatIllegalArgumentException()
          .isThrownBy(() -> CpuSet.of(MAX))
          .withMessageContaining("cpu: 1048576");
      assertThatIllegalArgumentException()
          .isThrownBy(() -> CpuSet.range(-1, 3))
          .withMessageContaining("cpu: -1");
      assertThatIllegalArgumentException()
          .isThrownBy(() -> CpuSet.range(0, MAX))
          .withMessageContaining("cpu: 1048576");
      BitSet tooHigh = new BitSet();
      tooHigh.set(MAX);
      assertThatIllegalArgumentException()
          .isThrownBy(() -> CpuSet.of(tooHigh))
          .withMessageContaining("cpu: 1048576");
      assertThat(CpuSet.of(MAX - 1).last()).isEqualTo(MAX - 1);
    }

    @Test
    void shouldNameBothEndsWhenARangeIsBackwards() {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> CpuSet.range(5, 2))
          .withMessage("range: 5-2 (expected: first <= last)");
      assertThat(CpuSet.range(4, 4)).isEqualTo(CpuSet.of(4));
    }

    @Test
    void shouldNameTheArgumentWhenAFactoryGetsNull() {
      assertThatNullPointerException()
          .isThrownBy(() -> CpuSet.of((int[]) null))
          .withMessage("cpus");
      assertThatNullPointerException()
          .isThrownBy(() -> CpuSet.of((BitSet) null))
          .withMessage("bits");
    }

    @Test
    void shouldBeEqualWithEqualHashCodesWhenBuiltDifferently() {
      BitSet bits = new BitSet();
      bits.set(0, 4);
      CpuSet[] same = {
        CpuSet.parse("0-3"),
        CpuSet.parse("3,2,1,0", 4),
        CpuSet.range(0, 3),
        CpuSet.of(0, 1, 2, 3, 3),
        CpuSet.of(bits),
        CpuSet.parseMask("0000000f"),
        CpuSet.range(0, 200).minus(CpuSet.range(4, 200)),
        CpuSet.range(0, 3).union(CpuSet.empty())
      };
      for (CpuSet s : same) {
        assertThat(s).isEqualTo(same[0]).hasSameHashCodeAs(same[0]);
      }
      assertThat(same[0]).isNotEqualTo(CpuSet.range(0, 4)).isNotEqualTo(CpuSet.of(0, 1, 2));
      assertThat(same[0]).isNotEqualTo(null).isNotEqualTo("0-3");
    }

    @Test
    void shouldBeTheEmptySetWhenEverythingIsRemoved() {
      CpuSet none = CpuSet.range(60, 130).minus(CpuSet.range(0, 200));

      assertThat(none).isEqualTo(CpuSet.empty()).hasSameHashCodeAs(CpuSet.empty());
      assertThat(CpuSet.of()).isEqualTo(CpuSet.empty());
      assertThat(CpuSet.parse("")).isEqualTo(CpuSet.empty());
      assertThat(none.isEmpty()).isTrue();
      assertThat(none.size()).isZero();
      assertThat(none.first()).isEqualTo(-1);
      assertThat(none.last()).isEqualTo(-1);
      assertThat(none.next(0)).isEqualTo(-1);
      assertThat(none.toArray()).isEmpty();
    }

    @Test
    void shouldAnswerFalseOrMinusOneWhenProbedOutsideTheSet() {
      CpuSet set = CpuSet.of(3, 64, 130);

      assertThat(set.contains(-1)).isFalse();
      assertThat(set.contains(Integer.MIN_VALUE)).isFalse();
      assertThat(set.contains(Integer.MAX_VALUE)).isFalse();
      assertThat(set.next(-5)).isEqualTo(3);
      assertThat(set.next(4)).isEqualTo(64);
      assertThat(set.next(65)).isEqualTo(130);
      assertThat(set.next(131)).isEqualTo(-1);
      assertThat(set.next(Integer.MAX_VALUE)).isEqualTo(-1);
    }

    @Test
    void shouldNotChangeWhenCopiesOrInputsAreModified() {
      BitSet input = new BitSet();
      input.set(1);
      int[] ids = {2, 3};
      CpuSet fromBits = CpuSet.of(input);
      CpuSet fromIds = CpuSet.of(ids);
      input.set(9);
      ids[0] = 7;

      BitSet copy = fromBits.toBitSet();
      copy.set(5);
      copy.clear(1);
      int[] array = fromIds.toArray();
      array[0] = 8;
      CpuSet union = fromBits.union(fromIds);
      fromBits.minus(fromIds);
      fromBits.intersect(fromIds);

      assertThat(fromBits).hasToString("1");
      assertThat(fromIds).hasToString("2-3");
      assertThat(union).hasToString("1-3");
      assertThat(fromBits.toBitSet()).isNotSameAs(fromBits.toBitSet());
    }
  }
}
