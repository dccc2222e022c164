package io.github.affinitykit.core.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.affinitykit.core.cpu.CpuListReferenceModel.Category;
import io.github.affinitykit.core.cpu.CpuListReferenceModel.Result;
import io.github.affinitykit.core.internal.text.Printable;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Compares {@link CpuSet} with {@link CpuListReferenceModel} and {@link BitSet} on inputs drawn
 * from the grammars and then mutated. Fixed seeds: a failure names its seed and input.
 */
class CpuSetRandomisedTest {
  private static final int CASES = 1000;
  private static final String ALPHABET = "0123456789-,:/ Na\tlx\n\0ALé\u00a0";
  private static final String MASK_ALPHABET = "0123456789abcdefABCDEFxg, \n";
  private static final String HEX = "0123456789abcdefABCDEF";
  private static final int[] NBITS = {1, 2, 7, 8, 16, 33, 64, 100, 1024, 4096};
  private static final String[] SEPARATORS = {",", " ", "\t", "\n", "\r", "\f", "\u000b", ", "};

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 0x5EED})
  void shouldMatchTheKernelModelWhenTheCpuCountIsGiven(long seed) {
    Random rnd = new Random(seed);
    Map<Category, Integer> seen = new EnumMap<>(Category.class);
    int accepted = 0;
    for (int i = 0; i < CASES; i++) {
      int nbits = NBITS[rnd.nextInt(NBITS.length)];
      String input = mutate(rnd, list(rnd, nbits, true));
      Result expected = CpuListReferenceModel.parseList(input, nbits, true);
      String what = describe(seed, input) + " nbits " + nbits;
      compare(what, input, expected, () -> CpuSet.parse(input, nbits));
      if (expected.accepted()) {
        accepted++;
      } else {
        seen.merge(expected.error(), 1, Integer::sum);
      }
    }
    assertGeneratorCoverage(accepted, seen);
  }

  @ParameterizedTest
  @ValueSource(longs = {4, 5})
  void shouldMatchTheKernelModelWithoutNAndAllWhenNoCpuCountIsGiven(long seed) {
    Random rnd = new Random(seed);
    Map<Category, Integer> seen = new EnumMap<>(Category.class);
    int accepted = 0;
    for (int i = 0; i < CASES; i++) {
      String input = mutate(rnd, list(rnd, CpuSet.MAX_CPUS, false));
      Result expected = CpuListReferenceModel.parseList(input, CpuSet.MAX_CPUS, false);
      compare(describe(seed, input), input, expected, () -> CpuSet.parse(input));
      if (expected.accepted()) {
        accepted++;
      } else {
        seen.merge(expected.error(), 1, Integer::sum);
      }
    }
    assertGeneratorCoverage(accepted, seen);
  }

  @ParameterizedTest
  @ValueSource(longs = {6, 7})
  void shouldMatchTheBigIntegerModelWhenParsingMasks(long seed) {
    Random rnd = new Random(seed);
    int accepted = 0;
    for (int i = 0; i < CASES; i++) {
      String valid = mask(rnd);
      String input = rnd.nextBoolean() ? mutate(rnd, valid, MASK_ALPHABET) : valid;
      Optional<BitSet> expected = CpuListReferenceModel.parseMask(input);
      Throwable thrown = catchThrowable(() -> CpuSet.parseMask(input));
      if (expected.isPresent()) {
        accepted++;
        assertThat(thrown).as(describe(seed, input)).isNull();
        assertThat(CpuSet.parseMask(input).toBitSet())
            .as(describe(seed, input))
            .isEqualTo(expected.get());
      } else {
        assertRejected(describe(seed, input), input, thrown);
      }
    }
    assertThat(accepted).as("accepted masks").isBetween(CASES / 5, CASES * 4 / 5);
  }

  @ParameterizedTest
  @ValueSource(longs = {8, 9})
  void shouldRoundTripThroughListAndMaskWhenSetsAreRandom(long seed) {
    Random rnd = new Random(seed);
    for (int i = 0; i < CASES; i++) {
      BitSet bits = bits(rnd, 100); // ids near MAX_CPUS make 32768-word masks: only a few
      CpuSet set = CpuSet.of(bits);
      int nbits = Math.min(CpuSet.MAX_CPUS, Math.max(1, bits.length()) + rnd.nextInt(70));
      Supplier<String> what = () -> "seed " + seed + " set " + bits + " nbits " + nbits;
      assertThat(CpuSet.parse(set.toString())).as(what).isEqualTo(set);
      assertThat(CpuSet.parse(set.toString(), nbits)).as(what).isEqualTo(set);
      assertThat(set.toMask(nbits)).as(what).isEqualTo(CpuListReferenceModel.toMask(bits, nbits));
      assertThat(CpuSet.parseMask(set.toMask(nbits))).as(what).isEqualTo(set);
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {10, 11})
  void shouldAgreeWithBitSetWhenCombiningRandomSets(long seed) {
    Random rnd = new Random(seed);
    for (int i = 0; i < CASES; i++) {
      BitSet a = bits(rnd, 20);
      BitSet b = rnd.nextInt(8) == 0 ? (BitSet) a.clone() : bits(rnd, 20);
      CpuSet x = CpuSet.of(a);
      CpuSet y = CpuSet.of(b);
      Supplier<String> what = () -> "seed " + seed + " a " + a + " b " + b;
      assertThat(x.union(y).toBitSet()).as(what).isEqualTo(combine(a, b, BitSet::or));
      assertThat(x.intersect(y).toBitSet()).as(what).isEqualTo(combine(a, b, BitSet::and));
      assertThat(x.minus(y).toBitSet()).as(what).isEqualTo(combine(a, b, BitSet::andNot));
      assertThat(x.containsAll(y)).as(what).isEqualTo(combine(b, a, BitSet::andNot).isEmpty());
      assertThat(x.intersects(y)).as(what).isEqualTo(a.intersects(b));
      assertThat(x.equals(y)).as(what).isEqualTo(a.equals(b));
      if (a.equals(b)) {
        assertThat(x.hashCode()).as(what).isEqualTo(y.hashCode());
      }
      assertThat(x.size()).as(what).isEqualTo(a.cardinality());
      assertThat(x.isEmpty()).as(what).isEqualTo(a.isEmpty());
      assertThat(x.first()).as(what).isEqualTo(a.nextSetBit(0));
      assertThat(x.last()).as(what).isEqualTo(a.length() - 1);
      assertThat(x.toArray()).as(what).isEqualTo(a.stream().toArray());
      assertThat(x.stream().toArray()).as(what).isEqualTo(a.stream().toArray());
      IntStream.Builder each = IntStream.builder();
      x.forEach(each::add);
      assertThat(each.build().toArray()).as(what).isEqualTo(a.stream().toArray());
      for (int k = 0; k < 8; k++) {
        int probe = probe(rnd, a);
        assertThat(x.contains(probe))
            .as(() -> what.get() + " probe " + probe)
            .isEqualTo(probe >= 0 && a.get(probe));
        assertThat(x.next(probe))
            .as(() -> what.get() + " probe " + probe)
            .isEqualTo(a.nextSetBit(Math.max(probe, 0)));
      }
    }
  }

  /**
   * Asserts that {@code parse} accepts what the model accepts, with the same bits, or rejects
   * alike.
   */
  static void compare(String what, String input, Result expected, Supplier<CpuSet> parse) {
    CpuSet[] actual = new CpuSet[1];
    Throwable thrown = catchThrowable(() -> actual[0] = parse.get());
    if (expected.accepted()) {
      assertThat(thrown).as(what).isNull();
      assertThat(actual[0].toBitSet()).as(what).isEqualTo(expected.bits());
    } else {
      assertRejected(what, input, thrown);
      assertThat(categoryOf((CpuSetFormatException) thrown))
          .as(what + ": " + thrown.getMessage())
          .isEqualTo(expected.error());
    }
  }

  /** Asserts a {@link CpuSetFormatException} that names the input and a position inside it. */
  static void assertRejected(String what, String input, Throwable thrown) {
    assertThat(thrown).as(what).isInstanceOf(CpuSetFormatException.class);
    CpuSetFormatException e = (CpuSetFormatException) thrown;
    assertThat(e.input()).as(what).isEqualTo(input);
    assertThat(e.position()).as(what).isBetween(0, input.length());
    assertThat(e.getMessage())
        .as(what)
        .contains(Printable.of(input), "position " + e.position(), e.rule());
  }

  /** The errno a rejection stands for, read from the rule the parser names. */
  private static Category categoryOf(CpuSetFormatException e) {
    if (e.rule().contains("overflows")) {
      return Category.OVERFLOW;
    }
    return e.rule().contains("out of range") ? Category.RANGE : Category.INVALID;
  }

  /** Guards against a generator that drifted into testing nothing. */
  private static void assertGeneratorCoverage(int accepted, Map<Category, Integer> seen) {
    assertThat(accepted).as("accepted inputs").isBetween(CASES / 5, CASES * 4 / 5);
    for (Category c : Category.values()) {
      assertThat(seen.getOrDefault(c, 0))
          .as("inputs rejected as " + c)
          .isGreaterThanOrEqualTo(CASES / 100);
    }
  }

  private static String describe(long seed, String input) {
    return "seed "
        + seed
        + " input \""
        + input.replace("\n", "\\n").replace("\t", "\\t").replace("\0", "\\0")
        + "\"";
  }

  // ---- generators

  private static String list(Random rnd, int nbits, boolean countKnown) {
    StringBuilder sb = new StringBuilder();
    if (rnd.nextInt(4) == 0) {
      sb.append(separators(rnd));
    }
    int regions = rnd.nextInt(5);
    for (int i = 0; i < regions; i++) {
      if (i > 0) {
        sb.append(separators(rnd));
      }
      sb.append(region(rnd, nbits, countKnown));
    }
    if (rnd.nextInt(4) == 0) {
      sb.append(separators(rnd));
    }
    switch (rnd.nextInt(8)) {
      case 0:
        sb.append('\n');
        break;
      case 1:
        sb.append('\n').append(region(rnd, nbits, countKnown));
        break;
      case 2:
        sb.append('\0').append(region(rnd, nbits, countKnown)).append("x");
        break;
      default:
        break;
    }
    return sb.toString();
  }

  private static String separators(Random rnd) {
    StringBuilder sb = new StringBuilder(SEPARATORS[rnd.nextInt(SEPARATORS.length)]);
    if (rnd.nextInt(4) == 0) {
      sb.append(SEPARATORS[rnd.nextInt(SEPARATORS.length)]);
    }
    return sb.toString();
  }

  private static String region(Random rnd, int nbits, boolean countKnown) {
    int kind = rnd.nextInt(10);
    if (kind == 0 && (countKnown || rnd.nextInt(4) == 0)) {
      return randomCase(rnd, "all") + (rnd.nextBoolean() ? "" : pattern(rnd, nbits, countKnown));
    }
    String first = number(rnd, nbits, countKnown);
    if (kind < 4) {
      return first;
    }
    String range =
        first + "-" + (rnd.nextInt(3) == 0 ? number(rnd, nbits, countKnown) : above(rnd, first));
    return kind < 7 ? range : range + pattern(rnd, nbits, countKnown);
  }

  private static String pattern(Random rnd, int nbits, boolean countKnown) {
    return ":" + small(rnd, nbits, countKnown) + "/" + small(rnd, nbits, countKnown);
  }

  /** A cpu number, mostly valid for {@code nbits}, sometimes at the kernel's u32 edges. */
  private static String number(Random rnd, int nbits, boolean countKnown) {
    switch (rnd.nextInt(countKnown ? 24 : 96)) {
      case 0:
        return "N";
      case 1:
        return "4294967295";
      case 2:
        return "4294967296";
      case 3:
        return "18446744073709551616";
      case 4:
        return "000" + rnd.nextInt(Math.min(nbits, 100));
      case 5:
        return Integer.toString(nbits - 1 + rnd.nextInt(3));
      default:
        return Integer.toString(rnd.nextInt(Math.min(nbits, 2000) + 1));
    }
  }

  private static String above(Random rnd, String first) {
    if (!first.chars().allMatch(Character::isDigit) || first.length() > 9) {
      return first;
    }
    return Long.toString(Long.parseLong(first) + rnd.nextInt(40));
  }

  /** A used or group size: small, sometimes 0, N or u32 edges (that make the kernel wrap). */
  private static String small(Random rnd, int nbits, boolean countKnown) {
    switch (rnd.nextInt(16)) {
      case 0:
        return countKnown ? "N" : "0";
      case 1:
        return "4294967295";
      case 2:
        return "4294967294";
      case 3:
        return "4294967296";
      default:
        return Integer.toString(rnd.nextInt(Math.min(nbits, 9) + 1));
    }
  }

  private static String randomCase(Random rnd, String s) {
    StringBuilder sb = new StringBuilder();
    for (char c : s.toCharArray()) {
      sb.append(rnd.nextBoolean() ? Character.toUpperCase(c) : c);
    }
    return sb.toString();
  }

  private static String mutate(Random rnd, String s) {
    return rnd.nextBoolean() ? s : mutate(rnd, s, ALPHABET);
  }

  /** One to three random insertions, deletions or replacements from {@code alphabet}. */
  private static String mutate(Random rnd, String s, String alphabet) {
    StringBuilder sb = new StringBuilder(s);
    for (int edits = 1 + rnd.nextInt(3); edits > 0; edits--) {
      char c = alphabet.charAt(rnd.nextInt(alphabet.length()));
      int at = rnd.nextInt(sb.length() + 1);
      int op = sb.length() == 0 ? 0 : rnd.nextInt(3);
      if (op == 0) {
        sb.insert(at, c);
      } else if (op == 1) {
        sb.deleteCharAt(Math.min(at, sb.length() - 1));
      } else {
        sb.setCharAt(Math.min(at, sb.length() - 1), c);
      }
    }
    return sb.toString();
  }

  private static String mask(Random rnd) {
    StringBuilder sb = new StringBuilder();
    int words = rnd.nextInt(7);
    for (int w = 0; w < words; w++) {
      if (w > 0) {
        sb.append(',');
      }
      int digits = 1 + rnd.nextInt(rnd.nextInt(10) == 0 ? 10 : 8);
      for (int d = 0; d < digits; d++) {
        sb.append(HEX.charAt(rnd.nextInt(HEX.length())));
      }
    }
    return rnd.nextBoolean() ? sb.append('\n').toString() : sb.toString();
  }

  /** A random set: sparse or dense, across 64-bit words, sometimes near {@link CpuSet#MAX_CPUS}. */
  private static BitSet bits(Random rnd, int highOneIn) {
    BitSet bits = new BitSet();
    int span = new int[] {1, 64, 65, 130, 300, 2000}[rnd.nextInt(6)];
    int density = 1 + rnd.nextInt(8);
    for (int i = 0; i < span; i++) {
      if (rnd.nextInt(density) == 0) {
        bits.set(i);
      }
    }
    if (rnd.nextInt(highOneIn) == 0) {
      bits.set(CpuSet.MAX_CPUS - 1 - rnd.nextInt(3));
    }
    if (rnd.nextInt(10) == 0) {
      bits.set(rnd.nextInt(span), span + rnd.nextInt(200));
    }
    return bits;
  }

  private static int probe(Random rnd, BitSet a) {
    switch (rnd.nextInt(4)) {
      case 0:
        return rnd.nextInt(5) - 3;
      case 1:
        return a.length() + rnd.nextInt(70) - 35;
      default:
        return rnd.nextInt(Math.max(1, a.length() + 70));
    }
  }

  private static BitSet combine(BitSet a, BitSet b, BiConsumer<BitSet, BitSet> op) {
    BitSet r = (BitSet) a.clone();
    op.accept(r, b);
    return r;
  }
}
