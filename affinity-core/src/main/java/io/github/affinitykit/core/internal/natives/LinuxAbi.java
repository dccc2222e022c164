package io.github.affinitykit.core.internal.natives;

import java.util.Locale;

/**
 * What differs between the 64-bit Linux ABIs the native layer runs on: {@code O_NOFOLLOW} and the
 * numbers of the calls made through {@code syscall(2)} (ones a libc may lack: glibc added {@code
 * gettid} in 2.30, {@code statx} in 2.28; affinity-numa keeps its own). Numbers are known for
 * x86-64 ({@code syscall_64.tbl}) and aarch64 ({@code asm-generic/unistd.h}); elsewhere those calls
 * answer {@code -ENOSYS}. The rest ({@code struct flock}, {@code struct statx}, the {@code fcntl}
 * commands) is the same on every 64-bit Linux ABI.
 *
 * <p>Thread safety: immutable.
 */
public enum LinuxAbi {
  /** x86-64 ({@code os.arch} amd64 or x86_64). */
  X86_64(0400000, new int[] {332, 186, 309}, "amd64", "x86_64"),
  /** 64-bit ARM. */
  AARCH64(0100000, new int[] {291, 178, 168}, "aarch64"),
  /** Other 64-bit ABIs whose {@code O_NOFOLLOW} is the generic one; no system call numbers. */
  GENERIC_64(0400000, null, "riscv64", "s390x", "loongarch64"),
  /** 64-bit POWER: {@code O_NOFOLLOW} as on ARM; no system call numbers. */
  POWER_64(0100000, null, "ppc64", "ppc64le"),
  /**
   * A 32-bit or unknown ABI: no lock file calls ({@code struct flock} and {@code O_NOFOLLOW}
   * unknown), no system call numbers.
   */
  UNKNOWN(0, null);

  /** The calls made through {@code syscall(2)}, in the order of each ABI's number table. */
  public enum Syscall {
    STATX,
    GETTID,
    GETCPU
  }

  private final int noFollow;
  private final int[] numbers;
  private final String[] archNames;

  LinuxAbi(int noFollow, int[] numbers, String... archNames) {
    this.noFollow = noFollow;
    this.numbers = numbers;
    this.archNames = archNames;
  }

  /** The ABI of a JVM whose {@code os.arch} is {@code osArch}; {@link #UNKNOWN} if not listed. */
  public static LinuxAbi of(String osArch) {
    String arch = osArch.toLowerCase(Locale.ROOT);
    for (LinuxAbi abi : values()) {
      for (String name : abi.archNames) {
        if (name.equals(arch)) {
          return abi;
        }
      }
    }
    return UNKNOWN;
  }

  /** Returns whether this is a 64-bit ABI whose lock file calls are known. */
  public boolean isKnown() {
    return this != UNKNOWN;
  }

  /** Returns {@code O_NOFOLLOW}. */
  public int noFollow() {
    return noFollow;
  }

  /** Returns the number of {@code call} for {@code syscall(2)}, or {@code -1} where unknown. */
  public int number(Syscall call) {
    return numbers == null ? -1 : numbers[call.ordinal()];
  }
}
