package io.github.affinitykit.numa.internal;

import io.github.affinitykit.core.internal.natives.FileCalls;
import io.github.affinitykit.core.internal.natives.LinuxAbi;
import io.github.affinitykit.core.internal.natives.NativeLayer;
import java.lang.reflect.InvocationTargetException;
import java.util.Optional;

/**
 * This JVM's NUMA memory calls, on the technology core's {@link NativeLayer} chose (so that {@code
 * -Daffinitykit.native} and the JDK 22+ rule pick both): {@code FfmMemoryCalls} from this jar's
 * {@code META-INF/versions/22} where core calls through {@code java.lang.foreign}, else {@code
 * JnaMemoryCalls}; none, with the reason, off Linux and where the system call numbers are unknown.
 * If the JDK 22+ class cannot load here, JNA is used and its name says why, as core's {@code auto}.
 *
 * <p>Thread safety: immutable; {@link #system()} is synchronised.
 */
public final class MemoryLayer {
  static final String FFM_CLASS = "io.github.affinitykit.numa.internal.FfmMemoryCalls";
  private static MemoryLayer system; // guarded by MemoryLayer.class

  private final MemoryCalls calls;
  private final String name;
  private final String why;

  private MemoryLayer(MemoryCalls calls, String name, String why) {
    this.calls = calls;
    this.name = name;
    this.why = why;
  }

  /** The calls of this JVM, on {@link NativeLayer#system()}, loaded on the first call and kept. */
  public static synchronized MemoryLayer system() {
    if (system == null) {
      system = on(NativeLayer.system());
    }
    return system;
  }

  /** The calls on {@code layer}'s technology, loaded now (tests: {@link NativeLayer#load}). */
  public static MemoryLayer on(NativeLayer layer) {
    return on(layer, FFM_CLASS);
  }

  static MemoryLayer on(NativeLayer layer, String ffmClass) {
    if (layer.threads().isEmpty()) {
      return new MemoryLayer(null, "none", layer.why());
    }
    LinuxAbi abi = layer.files().map(FileCalls::abi).orElse(LinuxAbi.UNKNOWN);
    int[] numbers = MemoryCalls.numbers(abi);
    if (numbers.length == 0) {
      return new MemoryLayer(
          null, "none", "NUMA memory calls: the " + abi + " ABI (expected: x86-64 or aarch64)");
    }
    if (!layer.isForeign()) {
      return jna(numbers, "");
    }
    try {
      Object calls =
          Class.forName(ffmClass).getDeclaredMethod("load", int[].class).invoke(null, numbers);
      return new MemoryLayer((MemoryCalls) calls, calls.toString(), "");
    } catch (ClassNotFoundException e) {
      return jna(
          numbers,
          "java.lang.foreign: this affinity-numa has no JDK 22+ classes: not loaded from its"
              + " multi-release jar");
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      return jna(
          numbers,
          "java.lang.foreign: "
              + (cause instanceof IllegalCallerException
                  ? "native access denied: run with --enable-native-access=ALL-UNNAMED (class"
                      + " path) or =io.github.affinitykit.numa (module path): "
                  : "")
              + NativeLayer.withCause(cause));
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      return jna(numbers, "java.lang.foreign: " + NativeLayer.withCause(e));
    }
  }

  /** JNA's calls, noting why {@code java.lang.foreign}'s are not used (empty: it was not asked). */
  private static MemoryLayer jna(int[] numbers, String ffmFailure) {
    try {
      MemoryCalls calls = JnaMemoryCalls.load(numbers);
      String name = calls.toString();
      return new MemoryLayer(
          calls, ffmFailure.isEmpty() ? name : name + " (" + ffmFailure + ")", "");
    } catch (LinkageError | RuntimeException e) {
      String why = "JNA or libc unavailable: " + NativeLayer.withCause(e);
      return new MemoryLayer(null, "none", ffmFailure.isEmpty() ? why : why + "; " + ffmFailure);
    }
  }

  /** Returns the memory calls, or empty where this platform has none ({@link #why()}). */
  public Optional<MemoryCalls> calls() {
    return Optional.ofNullable(calls);
  }

  /** Returns what calls libc ({@code JNA 5.17.0}...), with why the preferred one did not load. */
  public String name() {
    return name;
  }

  /** Returns why there are no memory calls; empty when there are. */
  public String why() {
    return why;
  }

  @Override
  public String toString() {
    return "MemoryLayer[" + name + (why.isEmpty() ? "" : ", " + why) + "]";
  }
}
