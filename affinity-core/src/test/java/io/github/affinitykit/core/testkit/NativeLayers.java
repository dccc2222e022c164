package io.github.affinitykit.core.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.internal.natives.NativeLayer;
import java.util.ArrayList;
import java.util.List;

/**
 * Every native layer this JDK has, loaded afresh for tests that must hold on each implementation:
 * JNA always, {@code java.lang.foreign} on JDK 22+ (where it must load: a test on it never skips
 * there).
 */
public final class NativeLayers {
  private NativeLayers() {}

  /** JNA, then {@code java.lang.foreign} on JDK 22+; each with its file and thread calls. */
  public static List<NativeLayer> each() {
    List<NativeLayer> layers = new ArrayList<>();
    layers.add(load("jna"));
    if (Runtime.version().feature() >= 22) {
      layers.add(load("ffm"));
    }
    return layers;
  }

  /** The layer {@code choice} ({@code jna} or {@code ffm}) for this machine, which must load. */
  public static NativeLayer load(String choice) {
    NativeLayer layer = NativeLayer.load(choice, "Linux", System.getProperty("os.arch"));
    assertThat(layer.threads()).as(layer.toString()).isPresent();
    assertThat(layer.files()).as(layer.toString()).isPresent();
    return layer;
  }
}
