package io.github.affinitykit.core.cpu;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.math.BigInteger;
import java.util.BitSet;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Independent models of the grammars {@link CpuSet} implements, for the randomised tests. They
 * share no code with {@link CpuListParser} and are written differently on purpose.
 *
 * <p>{@link #parseList} ports {@code bitmap_parselist} from {@code lib/bitmap-str.c} as the C
 * reads: a NUL-terminated byte string (the input's UTF-8 bytes) walked by an index that stands for
 * the {@code char *}, the kernel's {@code _ctype} notion of space, {@code u32} region fields,
 * -errno or {@code NULL} returned in place of the pointer, digits read through {@link BigInteger}.
 * {@link #parseMask} reads a mask with one regular expression and one {@link BigInteger}; {@link
 * #toMask} ports the kernel's {@code bitmap_string} ({@code %*pb}).
 */
final class CpuListReferenceModel {
  /** The kernel's error for a rejected list: -EINVAL, -ERANGE or -EOVERFLOW. */
  enum Category {
    INVALID,
    RANGE,
    OVERFLOW
  }

  /** Either the bits of an accepted list ({@code error == null}) or the error category. */
  record Result(BitSet bits, Category error) {
    boolean accepted() {
      return error == null;
    }
  }

  private static final int NULL = -1;
  private static final int EINVAL = -22;
  private static final int ERANGE = -34;
  private static final int EOVERFLOW = -75;
  private static final long U32 = 0xFFFF_FFFFL;
  private static final Pattern MASK = Pattern.compile("[0-9a-fA-F]{1,8}(,[0-9a-fA-F]{1,8})*");

  private final int[] s; // unsigned bytes, NUL-terminated
  private final long nbits;
  private final boolean countKnown;
  private final BitSet maskp = new BitSet();
  private long start;
  private long off;
  private long groupLen;
  private long end;
  private long num;

  private CpuListReferenceModel(String input, int nbits, boolean countKnown) {
    byte[] bytes = input.getBytes(UTF_8);
    this.s = new int[bytes.length + 1];
    for (int i = 0; i < bytes.length; i++) {
      s[i] = bytes[i] & 0xFF;
    }
    this.nbits = nbits;
    this.countKnown = countKnown;
  }

  /**
   * What {@code bitmap_parselist(input, mask, nbits)} returns. Without a count ({@code countKnown
   * == false}, as {@link CpuSet#parse(String)}) {@code N} and {@code all} are invalid.
   */
  static Result parseList(String input, int nbits, boolean countKnown) {
    CpuListReferenceModel m = new CpuListReferenceModel(input, nbits, countKnown);
    int ret = m.parselist();
    switch (ret) {
      case 0:
        return new Result(m.maskp, null);
      case EINVAL:
        return new Result(null, Category.INVALID);
      case ERANGE:
        return new Result(null, Category.RANGE);
      case EOVERFLOW:
        return new Result(null, Category.OVERFLOW);
      default:
        throw new AssertionError("model returned " + ret);
    }
  }

  private int parselist() {
    int buf = 0;
    while (buf != NULL) {
      buf = findRegion(buf);
      if (buf == NULL) {
        return 0;
      }
      buf = parseRegion(buf);
      if (isErr(buf)) {
        return buf;
      }
      int ret = checkRegion();
      if (ret != 0) {
        return ret;
      }
      setRegion();
    }
    return 0;
  }

  private static boolean isErr(int p) {
    return p < NULL;
  }

  private static boolean isspace(int c) {
    // lib/ctype.c: _S is set for 9..13, 32 and 160 (Latin-1 NBSP, only a UTF-8 continuation here)
    return (c >= 9 && c <= 13) || c == 32 || c == 160;
  }

  private static boolean endOfStr(int c) {
    return c == 0 || c == '\n';
  }

  private static boolean endOfRegionOnly(int c) { // __end_of_region
    return isspace(c) || c == ',';
  }

  private static boolean endOfRegion(int c) {
    return endOfRegionOnly(c) || endOfStr(c);
  }

  private int findRegion(int str) {
    while (endOfRegionOnly(s[str])) {
      str++;
    }
    return endOfStr(s[str]) ? NULL : str;
  }

  private boolean startsWithAllIgnoringCase(int str) {
    // strncasecmp(str, "all", 3) == 0; short-circuits at the NUL like the C loop
    return (s[str] | 0x20) == 'a' && (s[str + 1] | 0x20) == 'l' && (s[str + 2] | 0x20) == 'l';
  }

  private int parseRegion(int str) {
    long lastbit = (nbits - 1) & U32;
    if (startsWithAllIgnoringCase(str)) {
      if (!countKnown) {
        return EINVAL;
      }
      start = 0;
      end = lastbit;
      return checkPattern(str + 3);
    }
    str = getnum(str);
    if (isErr(str)) {
      return str;
    }
    start = num;
    if (endOfRegion(s[str])) {
      end = start;
      return noPattern(str);
    }
    if (s[str] != '-') {
      return EINVAL;
    }
    str = getnum(str + 1);
    if (isErr(str)) {
      return str;
    }
    end = num;
    return checkPattern(str);
  }

  private int checkPattern(int str) {
    if (endOfRegion(s[str])) {
      return noPattern(str);
    }
    if (s[str] != ':') {
      return EINVAL;
    }
    str = getnum(str + 1);
    if (isErr(str)) {
      return str;
    }
    off = num;
    if (s[str] != '/') {
      return EINVAL;
    }
    str = getnum(str + 1);
    if (isErr(str)) {
      return str;
    }
    groupLen = num;
    return str;
  }

  private int noPattern(int str) {
    off = (end + 1) & U32;
    groupLen = (end + 1) & U32;
    return endOfStr(s[str]) ? NULL : str;
  }

  private int getnum(int str) {
    if (s[str] == 'N') {
      if (!countKnown) {
        return EINVAL;
      }
      num = (nbits - 1) & U32;
      return str + 1;
    }
    StringBuilder digits = new StringBuilder();
    while (s[str + digits.length()] >= '0' && s[str + digits.length()] <= '9') {
      digits.append((char) s[str + digits.length()]);
    }
    if (digits.length() == 0) {
      return EINVAL;
    }
    BigInteger n = new BigInteger(digits.toString());
    if (n.bitLength() > 32) {
      return EOVERFLOW;
    }
    num = n.longValueExact();
    return str + digits.length();
  }

  private int checkRegion() {
    if (start > end || groupLen == 0 || off > groupLen) {
      return EINVAL;
    }
    if (end >= nbits) {
      return ERANGE;
    }
    return 0;
  }

  private void setRegion() {
    // unsigned int start; start += group_len wraps at 2^32 like the C
    for (long st = start; st <= end; st = (st + groupLen) & U32) {
      long count = Math.min(end - st + 1, off);
      for (long i = 0; i < count; i++) {
        maskp.set(Math.toIntExact(st + i));
      }
    }
  }

  /**
   * The bits of a mask in the form {@link CpuSet#parseMask} documents, or empty if it is rejected:
   * one optional trailing newline, then nothing or 1..8 hex digits per 32-bit word, most
   * significant word first, no bit at or above {@link CpuSet#MAX_CPUS}.
   */
  static Optional<BitSet> parseMask(String mask) {
    String m = mask.endsWith("\n") ? mask.substring(0, mask.length() - 1) : mask;
    if (m.isEmpty()) {
      return Optional.of(new BitSet());
    }
    if (!MASK.matcher(m).matches()) {
      return Optional.empty();
    }
    StringBuilder hex = new StringBuilder();
    for (String word : m.split(",")) {
      hex.append("0".repeat(8 - word.length())).append(word);
    }
    BigInteger value = new BigInteger(hex.toString(), 16);
    if (value.bitLength() > CpuSet.MAX_CPUS) {
      return Optional.empty();
    }
    BitSet bits = new BitSet();
    for (int i = value.getLowestSetBit(); i >= 0 && i < value.bitLength(); i++) {
      if (value.testBit(i)) {
        bits.set(i);
      }
    }
    return Optional.of(bits);
  }

  /** The kernel's {@code bitmap_string} ({@code %*pb} with field width {@code nbits}). */
  static String toMask(BitSet bits, int nbits) {
    final int chunkBits = 32;
    StringBuilder buf = new StringBuilder();
    int chunksz = nbits & (chunkBits - 1);
    if (chunksz == 0) {
      chunksz = chunkBits;
    }
    boolean first = true;
    for (int i = (nbits + chunkBits - 1) / chunkBits * chunkBits - chunkBits;
        i >= 0;
        i -= chunkBits) {
      long[] chunk = bits.get(i, i + chunksz).toLongArray();
      long val = chunk.length == 0 ? 0 : chunk[0];
      if (!first) {
        buf.append(',');
      }
      first = false;
      // zero-padded to DIV_ROUND_UP(chunksz, 4) digits: print a leading 1 digit above, drop it
      buf.append(Long.toHexString(val | 1L << (4 * ((chunksz + 3) / 4))).substring(1));
      chunksz = chunkBits;
    }
    return buf.toString();
  }
}
