package io.github.affinitykit.numa.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.internal.natives.NativeLayer;
import java.util.ArrayList;
import java.util.List;

/**
 * Every memory layer this JDK has, loaded afresh on core's layer of the same choice: JNA always,
 * {@code java.lang.foreign} on JDK 22+ (where it must load: a test on it never skips there).
 */
public final class MemoryLayers {
  private MemoryLayers() {}

  /** JNA, then {@code java.lang.foreign} on JDK 22+; each with its memory calls. */
  public static List<MemoryLayer> each() {
    List<MemoryLayer> layers = new ArrayList<>();
    layers.add(load("jna"));
    if (Runtime.version().feature() >= 22) {
      layers.add(load("ffm"));
    }
    return layers;
  }

  /** The memory calls on core's layer {@code choice} ({@code jna} or {@code ffm}), which load. */
  public static MemoryLayer load(String choice) {
    MemoryLayer layer =
        MemoryLayer.on(NativeLayer.load(choice, "Linux", System.getProperty("os.arch")));
    assertThat(layer.calls()).as(layer.toString()).isPresent();
    assertThat(layer.name()).startsWith(choice.equals("jna") ? "JNA " : "java.lang.foreign (JDK ");
    return layer;
  }
}
