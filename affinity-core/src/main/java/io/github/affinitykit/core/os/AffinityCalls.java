package io.github.affinitykit.core.os;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.NativeLong;
import java.nio.ByteOrder;

/**
 * The libc functions of {@link LinuxAffinityBackend}, through JNA direct mapping: a call costs
 * about a JNI call, where an interface mapping converts every argument by reflection (the larger
 * part of a pin's cost before). {@code size_t} is a {@link NativeLong} (the same width on every
 * Linux ABI); a mask is a byte array laid out as the kernel's {@code unsigned long} words ({@link
 * #byteOf(int)}). {@code gettid} (glibc 2.30+, musl 1.2.2+) is registered on its own class, so that
 * an older libc only loses it.
 *
 * <p>Thread safety: {@link #load()} is synchronised; the natives are thread-safe.
 */
final class AffinityCalls {
  private static final int WORD_BYTES = Native.LONG_SIZE;
  private static final boolean BIG_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN;
  private static Boolean hasGettid; // guarded by AffinityCalls.class; null: not registered yet

  private AffinityCalls() {}

  /**
   * Registers the natives with libc on first use.
   *
   * @return whether {@code gettid} is there too
   * @throws LinkageError if JNA or libc cannot be loaded
   */
  static synchronized boolean load() {
    if (hasGettid == null) {
      NativeLibrary libc = NativeLibrary.getInstance("c");
      Native.register(AffinityCalls.class, libc);
      hasGettid = Gettid.register(libc);
    }
    return hasGettid;
  }

  /**
   * The byte of a kernel mask that holds CPU {@code cpu}, at bit {@code cpu % 8}: word {@code cpu /
   * bits} holds it at bit {@code cpu % bits}, in native byte order.
   */
  static int byteOf(int cpu) {
    int wordBits = WORD_BYTES * 8;
    int bit = cpu % wordBits;
    return (cpu / wordBits) * WORD_BYTES + (BIG_ENDIAN ? WORD_BYTES - 1 - bit / 8 : bit / 8);
  }

  /** The CPU of bit 0 of byte {@code index} of a kernel mask (the inverse of {@link #byteOf}). */
  static int firstCpuOf(int index) {
    int inWord = index % WORD_BYTES;
    return (index - inWord) * 8 + (BIG_ENDIAN ? WORD_BYTES - 1 - inWord : inWord) * 8;
  }

  static native int sched_getaffinity(int pid, NativeLong cpusetsize, byte[] mask)
      throws LastErrorException;

  static native int sched_setaffinity(int pid, NativeLong cpusetsize, byte[] mask)
      throws LastErrorException;

  static native int sched_getcpu() throws LastErrorException;

  /** {@code gettid}, alone so that its absence does not keep the others from registering. */
  static final class Gettid {
    private Gettid() {}

    static boolean register(NativeLibrary libc) {
      try {
        Native.register(Gettid.class, libc);
        return gettid() > 0;
      } catch (UnsatisfiedLinkError e) {
        return false; // libc older than glibc 2.30: read /proc/thread-self instead
      }
    }

    static native int gettid();
  }
}
