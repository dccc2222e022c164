package io.github.affinitykit.core.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the C library has no {@code gettid}, the backend takes the TID from the {@code
 * /proc/thread-self} link; a link it cannot read or parse is an error naming the link and what it
 * held.
 */
class ThreadSelfTest {
  @TempDir Path dir;

  @Test
  void shouldReadTheTidAtTheEndOfTheLink() throws IOException {
    Path link = Files.createSymbolicLink(dir.resolve("thread-self"), Path.of("42/task/43"));
    assertThat(LinuxAffinityBackend.threadSelf(link)).isEqualTo(43);
  }

  @Test
  void shouldNameTheLinkAndItsTargetWhenTheTargetIsNoTid() throws IOException {
    Path link = Files.createSymbolicLink(dir.resolve("thread-self"), Path.of("42/task/x"));
    assertThatThrownBy(() -> LinuxAffinityBackend.threadSelf(link))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(link + ": 42/task/x (expected: a link <pid>/task/<tid>)");
  }

  @Test
  void shouldSayTheLinkIsUnreadableWhenItIsMissing() {
    Path link = dir.resolve("thread-self");
    assertThatThrownBy(() -> LinuxAffinityBackend.threadSelf(link))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith(link + ": unreadable, java.nio.file.NoSuchFileException")
        .hasMessageEndingWith("(expected: a link <pid>/task/<tid>)");
  }
}
