package io.github.affinitykit.core;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;

/**
 * The libc functions the Linux backend calls through JNA. {@code size_t} is a {@link NativeLong}
 * (the same width as {@code size_t} on every Linux ABI); masks are arrays of {@code unsigned long}.
 *
 * <p>Thread safety: JNA proxies are thread-safe; {@code errno} is captured per call.
 */
interface LibC extends Library {
  int sched_getaffinity(int pid, NativeLong cpusetsize, Pointer mask) throws LastErrorException;

  int sched_setaffinity(int pid, NativeLong cpusetsize, Pointer mask) throws LastErrorException;

  int sched_getcpu() throws LastErrorException;

  /** glibc 2.30+ and musl 1.2.2+; older libcs throw {@link UnsatisfiedLinkError}. */
  int gettid();
}
