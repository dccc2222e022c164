package io.github.affinitykit.core.cpu;

import java.util.Arrays;
import java.util.BitSet;
import java.util.Objects;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

/**
 * An immutable set of CPU ids, printed and parsed in the kernel's own forms.
 *
 * <p>{@link #parse(String)} accepts the exact cpu-list grammar of the kernel's {@code
 * bitmap_parselist} ({@code lib/bitmap-str.c}): regions {@code a}, {@code a-b}, {@code
 * a-b:used/group}, {@code N} for the last CPU and {@code all} (any case) when the CPU count is
 * known, separated by commas or whitespace; the empty string is the empty set. {@link
 * #parseMask(String)} accepts the hex mask form ({@code ff,ffffffff}: 32-bit words, most
 * significant first) used by {@code *_cpus} files and {@code /proc/irq/N/smp_affinity}. {@link
 * #toString()} prints the canonical list ({@code 0-3,8}), as the kernel's {@code %*pbl} does. Ids
 * up to {@link #MAX_CPUS} - 1 are accepted.
 *
 * <p>Thread safety: instances are immutable and safe to share between threads.
 */
public final class CpuSet {
  /** The exclusive upper bound on CPU ids when no CPU count is given: far above any kernel's. */
  public static final int MAX_CPUS = 1 << 20;

  private static final CpuSet EMPTY = new CpuSet(new long[0]);

  private final long[] words; // trimmed: no trailing zero word

  private CpuSet(long[] words) {
    this.words = words;
  }

  /** {@return the empty set; one shared instance} */
  public static CpuSet empty() {
    return EMPTY;
  }

  /**
   * {@return the set of the given ids; empty for none}
   *
   * @param cpus CPU ids, in any order; a repeated id counts once
   * @throws IllegalArgumentException if an id is negative or not below {@link #MAX_CPUS}
   */
  public static CpuSet of(int... cpus) {
    Objects.requireNonNull(cpus, "cpus");
    BitSet bits = new BitSet();
    for (int cpu : cpus) {
      bits.set(checkCpu(cpu));
    }
    return of(bits);
  }

  /**
   * {@return the ids {@code first..last}, both included}
   *
   * @param first the lowest id, 0-based
   * @param last the highest id, included
   * @throws IllegalArgumentException if {@code first > last} or either is out of range
   */
  public static CpuSet range(int first, int last) {
    checkCpu(first);
    checkCpu(last);
    if (first > last) {
      throw new IllegalArgumentException(
          "range: " + first + "-" + last + " (expected: first <= last)");
    }
    BitSet bits = new BitSet();
    bits.set(first, last + 1);
    return of(bits);
  }

  /**
   * {@return the set of the bits set in {@code bits} (copied)}
   *
   * @param bits the ids as set bits; later changes do not reach the set
   */
  public static CpuSet of(BitSet bits) {
    Objects.requireNonNull(bits, "bits");
    if (bits.length() > MAX_CPUS) {
      throw new IllegalArgumentException(
          "cpu: " + (bits.length() - 1) + " (expected: < " + MAX_CPUS + ")");
    }
    long[] w = bits.toLongArray();
    return w.length == 0 ? EMPTY : new CpuSet(w);
  }

  /**
   * Parses a kernel cpu list with no CPU count: {@code N} and {@code all} are rejected, ids must be
   * below {@link #MAX_CPUS}.
   *
   * @param list a cpu list, e.g. {@code 0-3,8}; {@code ""} is the empty set
   * @return the CPUs the list names
   * @throws CpuSetFormatException naming the input, the position and the rule broken
   */
  public static CpuSet parse(String list) {
    return CpuListParser.parseList(list, MAX_CPUS, false);
  }

  /**
   * Parses a kernel cpu list for a machine of {@code nbits} possible CPUs, exactly as {@code
   * bitmap_parselist(list, mask, nbits)} does: {@code N} is {@code nbits - 1}, ids must be below
   * {@code nbits}.
   *
   * @param list a cpu list, e.g. {@code 0-3,8} or {@code 1-N}
   * @param nbits the number of possible CPUs, 1 to {@link #MAX_CPUS}
   * @return the CPUs the list names, all below {@code nbits}
   * @throws CpuSetFormatException naming the input, the position and the rule broken
   */
  public static CpuSet parse(String list, int nbits) {
    if (nbits <= 0 || nbits > MAX_CPUS) {
      throw new IllegalArgumentException(
          "nbits: " + nbits + " (expected: > 0 and <= " + MAX_CPUS + ")");
    }
    return CpuListParser.parseList(list, nbits, true);
  }

  /**
   * Parses the kernel's hex mask form: comma-separated 32-bit words of at most 8 hex digits, most
   * significant word first ({@code 3,ffffffff} = 0-33). A trailing newline is ignored.
   *
   * @param mask hex words, e.g. a {@code *_cpus} file's text; {@code ""} is the empty set
   * @return the CPUs whose bits are set
   * @throws CpuSetFormatException naming the input, the position and the rule broken
   */
  public static CpuSet parseMask(String mask) {
    return CpuListParser.parseMask(mask);
  }

  private static int checkCpu(int cpu) {
    if (cpu < 0 || cpu >= MAX_CPUS) {
      throw new IllegalArgumentException(
          "cpu: " + cpu + " (expected: >= 0 and < " + MAX_CPUS + ")");
    }
    return cpu;
  }

  /**
   * {@return whether {@code cpu} is in this set; false for negative ids}
   *
   * @param cpu a CPU id; any value, a negative one is never in a set
   */
  public boolean contains(int cpu) {
    if (cpu < 0) {
      return false;
    }
    int w = cpu >>> 6;
    return w < words.length && (words[w] & (1L << cpu)) != 0;
  }

  /** {@return the count of ids, 0 for the empty set} */
  public int size() {
    int n = 0;
    for (long w : words) {
      n += Long.bitCount(w);
    }
    return n;
  }

  /** {@return whether this set has no CPU} */
  public boolean isEmpty() {
    return words.length == 0;
  }

  /** {@return the smallest CPU id; -1 for the empty set} */
  public int first() {
    return next(0);
  }

  /** {@return the largest CPU id; -1 for the empty set} */
  public int last() {
    return words.length == 0
        ? -1
        : (words.length - 1) * 64 + 63 - Long.numberOfLeadingZeros(words[words.length - 1]);
  }

  /**
   * {@return the lowest id {@code >= from} in this set, or -1 if there is none}
   *
   * @param from the first id to look at; a negative one means 0
   */
  public int next(int from) {
    int i = Math.max(from, 0);
    int w = i >>> 6;
    if (w >= words.length) {
      return -1;
    }
    long word = words[w] & (-1L << i);
    while (true) {
      if (word != 0) {
        return w * 64 + Long.numberOfTrailingZeros(word);
      }
      if (++w == words.length) {
        return -1;
      }
      word = words[w];
    }
  }

  /**
   * Calls {@code action} once per id, lowest first.
   *
   * @param action the action
   */
  public void forEach(IntConsumer action) {
    for (int cpu = first(); cpu >= 0; cpu = next(cpu + 1)) {
      action.accept(cpu);
    }
  }

  /** {@return a stream of the ids, ascending and distinct} */
  public IntStream stream() {
    return toBitSet().stream();
  }

  /** {@return a new array of the ids, ascending; empty for the empty set} */
  public int[] toArray() {
    return stream().toArray();
  }

  /** {@return a new bit set, one bit per id; changing it does not change this set} */
  public BitSet toBitSet() {
    return BitSet.valueOf(words);
  }

  /**
   * {@return the CPUs in this set or in {@code other}}
   *
   * @param other the CPUs to add
   */
  public CpuSet union(CpuSet other) {
    BitSet b = toBitSet();
    b.or(other.toBitSet());
    return of(b);
  }

  /**
   * {@return the CPUs in both sets; empty if they share none}
   *
   * @param other the set to intersect with
   */
  public CpuSet intersect(CpuSet other) {
    BitSet b = toBitSet();
    b.and(other.toBitSet());
    return of(b);
  }

  /**
   * {@return the CPUs in this set but not in {@code other}}
   *
   * @param other the CPUs to take out
   */
  public CpuSet minus(CpuSet other) {
    BitSet b = toBitSet();
    b.andNot(other.toBitSet());
    return of(b);
  }

  /**
   * {@return true if {@code other} is a subset of this set; always for an empty one}
   *
   * @param other the CPUs to look for
   */
  public boolean containsAll(CpuSet other) {
    return other.minus(this).isEmpty();
  }

  /**
   * {@return whether this set and {@code other} share a CPU}
   *
   * @param other the set to compare with
   */
  public boolean intersects(CpuSet other) {
    return toBitSet().intersects(other.toBitSet());
  }

  /**
   * Returns the kernel's hex mask form for a machine of {@code nbits} CPUs ({@code %*pb}): 32-bit
   * words, most significant first, the first one as wide as {@code nbits} needs.
   *
   * @param nbits the number of possible CPUs; above {@link #last()}
   * @return comma-separated hex words, e.g. {@code 0,0000000f} for 0-3 in 33 bits
   * @throws IllegalArgumentException if a CPU of this set is not below {@code nbits}
   */
  public String toMask(int nbits) {
    if (nbits <= 0 || last() >= nbits) {
      throw new IllegalArgumentException(
          "nbits: " + nbits + " (expected: > 0 and > highest cpu " + last() + ")");
    }
    StringBuilder sb = new StringBuilder();
    int topWord = (nbits - 1) / 32;
    for (int w = topWord; w >= 0; w--) {
      long chunk = (w / 2 < words.length ? words[w / 2] >>> (32 * (w % 2)) : 0) & 0xFFFF_FFFFL;
      int digits = w == topWord ? ((nbits - 1) % 32) / 4 + 1 : 8;
      String hex = Long.toHexString(chunk);
      sb.append("0".repeat(Math.max(0, digits - hex.length()))).append(hex);
      if (w > 0) {
        sb.append(',');
      }
    }
    return sb.toString();
  }

  /** Returns the canonical kernel cpu list of this set: {@code 0-3,8}; empty for the empty set. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    int start = first();
    while (start >= 0) {
      int end = start;
      while (contains(end + 1)) {
        end++;
      }
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(start);
      if (end > start) {
        sb.append('-').append(end);
      }
      start = next(end + 1);
    }
    return sb.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CpuSet && Arrays.equals(words, ((CpuSet) o).words);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(words);
  }
}
