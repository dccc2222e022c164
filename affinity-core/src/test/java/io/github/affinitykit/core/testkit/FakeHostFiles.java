package io.github.affinitykit.core.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes arbitrary files of a fake kernel tree under a root. */
public final class FakeHostFiles {
  private final Path root;

  public FakeHostFiles(Path root) {
    this.root = root;
  }

  public FakeHostFiles file(String relative, String text) {
    try {
      Path p = root.resolve(relative);
      Files.createDirectories(p.getParent());
      Files.writeString(p, text + "\n", StandardCharsets.UTF_8);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
