package io.github.affinitykit.core.internal.natives;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The per-thread native buffers of {@link FfmLibc}: {@code {errno state, path, data}}, the last two
 * allocated on first use and grown as needed, freed with the thread (automatic arenas).
 *
 * <p>Thread safety: stateless; each thread passes its own buffers.
 */
final class FfmBuffers {
  private FfmBuffers() {}

  /** A new zeroed buffer of {@code bytes}, 8-byte aligned, freed when unreachable. */
  static MemorySegment allocate(long bytes) {
    return Arena.ofAuto().allocate(bytes, 8);
  }

  /** The address of the calling thread's path buffer, holding {@code path}. */
  static long path(MemorySegment[] s, byte[] path) {
    if (s[1] == null || s[1].byteSize() < path.length) {
      s[1] = allocate(Math.max(256, path.length));
    }
    MemorySegment.copy(path, 0, s[1], JAVA_BYTE, 0, path.length);
    return s[1].address();
  }

  /** The calling thread's data buffer, at least {@code bytes} long. */
  static MemorySegment data(MemorySegment[] s, long bytes) {
    if (s[2] == null || s[2].byteSize() < bytes) {
      s[2] = allocate(Math.max(256, bytes));
    }
    return s[2];
  }
}
