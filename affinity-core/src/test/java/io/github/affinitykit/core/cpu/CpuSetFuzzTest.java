package io.github.affinitykit.core.cpu;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.BitSet;
import java.util.Optional;

/**
 * Coverage-guided fuzzing of {@link CpuSet}'s parsers: any text is either parsed exactly as the
 * kernel's {@code bitmap_parselist} / {@code bitmap_parse} would ({@link CpuListReferenceModel}) or
 * rejected with a {@link CpuSetFormatException} naming a position in it; never another exception,
 * and every accepted set prints back to itself.
 *
 * <p>{@code mvn verify} replays {@code CpuSetFuzzTestInputs/<method>/} (test resources) as
 * regression tests; {@code JAZZER_FUZZ=1} fuzzes (see {@code affinity-core/README-fuzzing.md}).
 */
class CpuSetFuzzTest {
  /** Counts the kernel model is asked about: tiny, word edges, a big host (parse(list): 2^20). */
  private static final int[] NBITS = {1, 8, 64, 65, 4096};

  @FuzzTest(maxDuration = "10m")
  void shouldParseLikeTheKernelOrRejectWithAPositionWhenTheTextIsArbitrary(byte[] data) {
    String input = new String(data, UTF_8);
    String what = "input " + escape(input);
    CpuSetRandomisedTest.compare(
        what,
        input,
        CpuListReferenceModel.parseList(input, CpuSet.MAX_CPUS, false),
        () -> roundTrip(CpuSet.parse(input)));
    for (int nbits : NBITS) {
      CpuSetRandomisedTest.compare(
          what + " nbits " + nbits,
          input,
          CpuListReferenceModel.parseList(input, nbits, true),
          () -> roundTrip(CpuSet.parse(input, nbits)));
    }
    Optional<BitSet> mask = CpuListReferenceModel.parseMask(input);
    Throwable thrown = catchThrowable(() -> CpuSet.parseMask(input));
    if (mask.isPresent()) {
      assertThat(thrown).as(what).isNull();
      assertThat(roundTrip(CpuSet.parseMask(input)).toBitSet()).as(what).isEqualTo(mask.get());
    } else {
      CpuSetRandomisedTest.assertRejected(what + " as a mask", input, thrown);
    }
  }

  /** Checks that the set prints as a list and as a mask that parse back to it; returns it. */
  private static CpuSet roundTrip(CpuSet set) {
    assertThat(CpuSet.parse(set.toString())).as("list of " + set).isEqualTo(set);
    int nbits = Math.max(1, set.last() + 1);
    assertThat(CpuSet.parseMask(set.toMask(nbits))).as("mask of " + set).isEqualTo(set);
    return set;
  }

  private static String escape(String s) {
    StringBuilder sb = new StringBuilder("\"");
    s.codePoints()
        .limit(200)
        .forEach(
            c -> sb.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", c) : (char) c + ""));
    return sb.append(s.length() > 200 ? "...\"" : "\"").toString();
  }
}
