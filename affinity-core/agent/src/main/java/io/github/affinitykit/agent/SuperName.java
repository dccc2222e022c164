package io.github.affinitykit.agent;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The internal name of a class's super class ({@code java/lang/Thread}), read from its class-file
 * bytes: the constant pool is walked once, nothing is loaded, and nothing is kept. Malformed or
 * truncated bytes give an empty result, never an exception.
 *
 * <p>Thread safety: stateless.
 */
final class SuperName {
  private static final int MAGIC = 0xCAFEBABE;

  private SuperName() {}

  /**
   * {@return the super class's internal name; empty for {@code java/lang/Object}, malformed bytes}
   */
  static Optional<String> of(byte[] b) {
    if (b == null || b.length < 10 || u4(b, 0) != MAGIC) {
      return Optional.empty();
    }
    int count = u2(b, 8);
    int[] offsets = new int[count]; // of each entry's first byte after the tag
    int p = 10;
    for (int i = 1; i < count; i++) {
      if (p >= b.length) {
        return Optional.empty();
      }
      int tag = b[p] & 0xff;
      offsets[i] = p + 1;
      int size = size(tag, b, p + 1);
      if (size < 0) {
        return Optional.empty();
      }
      p += 1 + size;
      if (tag == 5 || tag == 6) {
        i++; // a long or a double takes two slots
      }
    }
    // access flags, this class, super class
    if (p + 6 > b.length) {
      return Optional.empty();
    }
    int classEntry = entry(b, offsets, u2(b, p + 4), 7);
    int utf = classEntry < 0 ? -1 : entry(b, offsets, u2(b, classEntry), 1);
    if (utf < 0) {
      return Optional.empty();
    }
    int length = u2(b, utf);
    // class names in the JDK and in applications: ASCII is read as is, anything else decoded
    return Optional.of(new String(b, utf + 2, length, StandardCharsets.UTF_8));
  }

  /** {@return where constant {@code index}'s bytes start, if its tag is {@code tag}; else -1} */
  private static int entry(byte[] b, int[] offsets, int index, int tag) {
    boolean found = index > 0 && index < offsets.length && offsets[index] > 0;
    return found && b[offsets[index] - 1] == tag ? offsets[index] : -1;
  }

  /** {@return the bytes after tag {@code tag} at {@code at}; -1 for an unknown tag or overrun} */
  private static int size(int tag, byte[] b, int at) {
    int size;
    switch (tag) {
      case 1: // Utf8
        if (at + 2 > b.length) {
          return -1;
        }
        size = 2 + u2(b, at);
        break;
      case 7: // Class
      case 8: // String
      case 16: // MethodType
      case 19: // Module
      case 20: // Package
        size = 2;
        break;
      case 15: // MethodHandle
        size = 3;
        break;
      case 3: // Integer
      case 4: // Float
      case 9: // Fieldref
      case 10: // Methodref
      case 11: // InterfaceMethodref
      case 12: // NameAndType
      case 17: // Dynamic
      case 18: // InvokeDynamic
        size = 4;
        break;
      case 5: // Long
      case 6: // Double
        size = 8;
        break;
      default:
        return -1;
    }
    return at + size <= b.length ? size : -1;
  }

  private static int u2(byte[] b, int at) {
    return (b[at] & 0xff) << 8 | (b[at + 1] & 0xff);
  }

  private static int u4(byte[] b, int at) {
    return u2(b, at) << 16 | u2(b, at + 2);
  }
}
