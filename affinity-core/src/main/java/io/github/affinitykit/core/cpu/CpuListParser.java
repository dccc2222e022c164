package io.github.affinitykit.core.cpu;

import io.github.affinitykit.core.internal.text.Printable;
import java.util.BitSet;
import java.util.Objects;

/**
 * The kernel's cpu-list ({@code bitmap_parselist}) and cpu-mask ({@code bitmap_parse}) grammars,
 * transcribed rule for rule from {@code lib/bitmap-str.c}, with errors that say where and why.
 *
 * <p>Thread safety: stateless except for the per-call cursor; each call uses its own instance.
 */
final class CpuListParser {
  private static final String LIST = "cpu list";
  private static final String MASK = "cpu mask";
  private static final long MAX_U32 = 0xFFFF_FFFFL;

  private final String s;
  private final int nbits;
  private final boolean countKnown;
  private int pos;

  private CpuListParser(String s, int nbits, boolean countKnown) {
    this.s = s;
    this.nbits = nbits;
    this.countKnown = countKnown;
  }

  static CpuSet parseList(String list, int nbits, boolean countKnown) {
    Objects.requireNonNull(list, "list");
    return new CpuListParser(list, nbits, countKnown).list();
  }

  private CpuSet list() {
    BitSet bits = new BitSet();
    while (true) {
      while (pos < s.length() && isSeparator(s.charAt(pos))) {
        pos++;
      }
      if (atEndOfString() || region(bits)) {
        return CpuSet.of(bits);
      }
    }
  }

  /**
   * One region: {@code a}, {@code a-b}, {@code a-b:used/group} or {@code all[:used/group]}. Returns
   * true if the list ends right after it: like the kernel, a '\n' (or NUL) directly after a region
   * without a pattern ends the string, while elsewhere a '\n' is whitespace.
   */
  private boolean region(BitSet bits) {
    int regionStart = pos;
    long start;
    long end;
    long used;
    long group;
    if (s.regionMatches(true, pos, "all", 0, 3)) {
      requireCount("all");
      pos += 3;
      start = 0;
      end = nbits - 1;
    } else {
      start = number();
      end = start;
      if (!atEndOfRegion()) {
        expect('-', "expected: '-', ',' or whitespace after a cpu number");
        end = number();
      }
    }
    boolean last = false;
    if (atEndOfRegion()) {
      if (end == MAX_U32) { // the kernel's u32 end + 1 wraps to a group of 0: -EINVAL
        throw error(regionStart, "region end " + end + " (expected: <= 2^32-2, end + 1 wraps)");
      }
      last = atEndOfString();
      used = end + 1;
      group = end + 1;
    } else {
      expect(':', "expected: ':', ',' or whitespace after a range");
      used = number();
      expect('/', "expected: '/' between used and group size");
      group = number();
    }
    check(regionStart, start, end, used, group);
    // the kernel's u32 start += group wraps at 2^32: 1-7:1/4294967295 is {0,1}
    for (long first = start; first <= end; first = (first + group) & MAX_U32) {
      bits.set((int) first, (int) Math.min(end + 1, first + used));
    }
    return last;
  }

  private void check(int at, long start, long end, long used, long group) {
    if (start > end) {
      throw error(at, "range " + start + "-" + end + " (expected: start <= end)");
    }
    if (group == 0) {
      throw error(at, "group size 0 (expected: group > 0)");
    }
    if (used > group) {
      throw error(at, "used " + used + " > group " + group + " (expected: used <= group)");
    }
    if (end >= nbits) {
      String limit = nbits + (countKnown ? " possible cpus" : "");
      throw error(at, "cpu " + end + " out of range (expected: < " + limit + ")");
    }
  }

  /** A decimal number or {@code N}; like {@code bitmap_getnum}. */
  private long number() {
    if (pos < s.length() && s.charAt(pos) == 'N') {
      requireCount("N");
      pos++;
      return nbits - 1L;
    }
    int begin = pos;
    long n = 0;
    boolean overflow = false;
    while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') {
      n = n * 10 + (s.charAt(pos) - '0');
      overflow |= n > MAX_U32;
      pos++;
    }
    if (pos == begin) {
      throw error(begin, "expected: a decimal cpu number or N");
    }
    if (overflow) {
      throw error(begin, "number " + s.substring(begin, pos) + " overflows (expected: <= 2^32-1)");
    }
    return n;
  }

  private void requireCount(String what) {
    if (!countKnown) {
      throw error(pos, "'" + what + "' needs the number of possible cpus (use parse(list, nbits))");
    }
  }

  private void expect(char c, String rule) {
    if (pos >= s.length() || s.charAt(pos) != c) {
      throw error(pos, rule);
    }
    pos++;
  }

  private boolean atEndOfString() {
    return pos >= s.length() || s.charAt(pos) == '\n' || s.charAt(pos) == '\0';
  }

  private boolean atEndOfRegion() {
    return atEndOfString() || isSeparator(s.charAt(pos));
  }

  private static boolean isSeparator(char c) {
    // the kernel's isspace() (\t \n \v \f \r, space) or ','; a '\n' right after a region ends it.
    return c == ',' || c == ' ' || (c >= '\t' && c <= '\r');
  }

  private CpuSetFormatException error(int at, String rule) {
    return new CpuSetFormatException(LIST, s, at, rule);
  }

  static CpuSet parseMask(String mask) {
    Objects.requireNonNull(mask, "mask");
    String m = mask.endsWith("\n") ? mask.substring(0, mask.length() - 1) : mask;
    BitSet bits = new BitSet();
    if (m.isEmpty()) {
      return CpuSet.empty();
    }
    String[] chunks = m.split(",", -1);
    int at = m.length();
    for (int i = chunks.length - 1, word = 0; i >= 0; i--, word++) {
      String chunk = chunks[i];
      at -= chunk.length();
      if (chunk.isEmpty() || chunk.length() > 8) {
        throw new CpuSetFormatException(
            MASK,
            mask,
            at,
            "word \"" + Printable.of(chunk) + "\" (expected: 1 to 8 hex digits per 32-bit word)");
      }
      for (int j = 0; j < chunk.length(); j++) {
        if (Character.digit(chunk.charAt(j), 16) < 0 || chunk.charAt(j) > 'f') {
          throw new CpuSetFormatException(MASK, mask, at + j, "expected: a hex digit or ','");
        }
      }
      long value = Long.parseLong(chunk, 16);
      if (value != 0 && word * 32L + 63 - Long.numberOfLeadingZeros(value) >= CpuSet.MAX_CPUS) {
        throw new CpuSetFormatException(
            MASK, mask, at, "cpu out of range (expected: < " + CpuSet.MAX_CPUS + ")");
      }
      for (long v = value; v != 0; v &= v - 1) {
        bits.set(word * 32 + Long.numberOfTrailingZeros(v));
      }
      at--; // the ','
    }
    return CpuSet.of(bits);
  }
}
