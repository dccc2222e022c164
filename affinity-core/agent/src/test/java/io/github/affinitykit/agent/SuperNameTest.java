package io.github.affinitykit.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The super-class name read from real class bytes, and nothing (never a throw) from bad bytes. */
class SuperNameTest {
  @Test
  void shouldReadTheSuperClassOfRealClasses() throws IOException {
    assertThat(SuperName.of(bytes(Worker.class))).contains("java/lang/Thread");
    assertThat(SuperName.of(bytes(SubWorker.class)))
        .contains("io/github/affinitykit/agent/SuperNameTest$Worker");
    assertThat(SuperName.of(bytes(SuperNameTest.class))).contains("java/lang/Object");
    assertThat(SuperName.of(bytes(Thread.class))).contains("java/lang/Object");
    assertThat(SuperName.of(bytes(Object.class))).isEmpty();
  }

  @Test
  void shouldGiveNothingForMalformedBytes() throws IOException {
    byte[] real = bytes(Worker.class);
    assertThat(SuperName.of(null)).isEmpty();
    assertThat(SuperName.of(new byte[0])).isEmpty();
    assertThat(SuperName.of(new byte[] {(byte) 0xCA, (byte) 0xFE})).isEmpty();
    byte[] unknownTag = real.clone();
    unknownTag[10] = 99; // the first constant's tag
    assertThat(SuperName.of(unknownTag)).isEmpty();
    assertThat(SuperName.of(Arrays.copyOf(real, 20))).isEmpty(); // inside the constant pool
    for (int length = 0; length < real.length; length++) {
      // cut before the super-class index: nothing; after it, the name is still whole
      Optional<String> cut = SuperName.of(Arrays.copyOf(real, length));
      assertThat(cut.isEmpty() || cut.get().equals("java/lang/Thread"))
          .as("cut at %d", length)
          .isTrue();
    }
    Random random = new Random(35);
    for (int i = 0; i < 2_000; i++) {
      byte[] bad = real.clone();
      bad[8 + random.nextInt(bad.length - 8)] = (byte) random.nextInt(256);
      SuperName.of(bad); // any answer but a throw
    }
  }

  private static byte[] bytes(Class<?> type) throws IOException {
    String name = "/" + type.getName().replace('.', '/') + ".class";
    try (InputStream in = type.getResourceAsStream(name)) {
      return in.readAllBytes();
    }
  }

  static class Worker extends Thread {}

  static final class SubWorker extends Worker {}
}
