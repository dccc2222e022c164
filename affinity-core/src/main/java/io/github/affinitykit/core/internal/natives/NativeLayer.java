package io.github.affinitykit.core.internal.natives;

import java.lang.reflect.InvocationTargetException;
import java.nio.ByteOrder;
import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The one native layer of this library: which technology calls libc, and per concern ({@link
 * ThreadCalls}, {@link FileCalls}) the calls or why there are none (affinity-numa's memory calls
 * follow its technology: {@link #isForeign()}). Chosen once per JVM by {@link #system()}, never in
 * a static initialiser: {@code java.lang.foreign} on JDK 22+, else JNA ({@code
 * -Daffinitykit.native=ffm|jna} forces one). A missing call is data (empty, with the reason), never
 * hidden. How to add a call: ARCHITECTURE.md, "Adding a native call".
 *
 * <p>Thread safety: immutable; {@link #system()} is synchronised.
 */
public final class NativeLayer {
  /**
   * The property that forces an implementation: {@code auto} (default), {@code ffm}, {@code jna}.
   */
  public static final String PROPERTY = "affinitykit.native";

  static final String FFM_CLASS = "io.github.affinitykit.core.internal.natives.FfmLibc";
  private static NativeLayer system; // guarded by NativeLayer.class

  private final String name;
  private final ThreadCalls threads;
  private final FileCalls files;
  private final String why;

  private NativeLayer(String name, ThreadCalls threads, FileCalls files, String why) {
    this.name = name;
    this.threads = threads;
    this.files = files;
    this.why = why;
  }

  /** A layer of {@code libc}'s calls. */
  private static NativeLayer of(Object libc) {
    return new NativeLayer(libc.toString(), (ThreadCalls) libc, (FileCalls) libc, "");
  }

  /** The layer of this JVM, chosen on the first call from the system properties and kept. */
  public static synchronized NativeLayer system() {
    if (system == null) {
      system =
          load(
              System.getProperty(PROPERTY, "auto"),
              System.getProperty("os.name", ""),
              System.getProperty("os.arch", ""));
    }
    return system;
  }

  /** Loads a layer now, not kept (tests, benchmarks), for {@code os.name} and {@code os.arch}. */
  public static NativeLayer load(String choice, String osName, String osArch) {
    return load(choice, osName, osArch, FFM_CLASS);
  }

  static NativeLayer load(String choice, String osName, String osArch, String ffmClass) {
    if (!osName.toLowerCase(Locale.ROOT).startsWith("linux")) {
      return none("os.name " + osName + ": only Linux is supported");
    }
    LinuxAbi abi = LinuxAbi.of(osArch);
    if (!abi.isKnown() && ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
      return none("os.arch " + osArch + " (expected: a 64-bit or little-endian ABI)");
    }
    switch (choice.strip().toLowerCase(Locale.ROOT)) {
      case "ffm":
        return ffm(abi, osArch, ffmClass);
      case "jna":
        return jna(abi, osArch);
      case "auto":
      case "":
        if (Runtime.version().feature() < 22) {
          return jna(abi, osArch);
        }
        NativeLayer ffm = ffm(abi, osArch, ffmClass);
        return ffm.threads != null ? ffm : jna(abi, osArch).after(ffm.why);
      default:
        return none(PROPERTY + ": " + choice + " (expected: auto, ffm or jna)");
    }
  }

  private static NativeLayer ffm(LinuxAbi abi, String osArch, String ffmClass) {
    int feature = Runtime.version().feature();
    if (feature < 22) {
      return none("java.lang.foreign: needs JDK 22+ (this JVM is " + feature + ")");
    }
    if (!abi.isKnown()) {
      return none("java.lang.foreign: os.arch " + osArch + " (expected: a 64-bit Linux ABI)");
    }
    try {
      Object libc =
          Class.forName(ffmClass).getDeclaredMethod("load", LinuxAbi.class).invoke(null, abi);
      return of(libc);
    } catch (ClassNotFoundException e) {
      return none(
          "java.lang.foreign: this affinity-core has no JDK 22+ classes: not loaded from its"
              + " multi-release jar (a class directory, a jar repackaged without 'Multi-Release:"
              + " true' in its manifest, or built with -Dffm.skip)");
    } catch (InvocationTargetException e) {
      return none("java.lang.foreign: " + ffmFailure(e.getCause()));
    } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
      return none("java.lang.foreign: " + withCause(e));
    }
  }

  private static String ffmFailure(Throwable e) {
    if (e instanceof IllegalCallerException) {
      return "native access denied: run with --enable-native-access=ALL-UNNAMED (class path) or"
          + " =io.github.affinitykit.core (module path): "
          + e;
    }
    return withCause(e);
  }

  private static NativeLayer jna(LinuxAbi abi, String osArch) {
    JnaLibc libc;
    try {
      libc = JnaLibc.load(abi);
    } catch (LinkageError | RuntimeException e) {
      // no JNA jar (NoClassDefFoundError), its stub cannot load (UnsatisfiedLinkError), or
      // IllegalCallerException under --illegal-native-access=deny
      return none(jnaFailure(e));
    }
    if (!abi.isKnown()) {
      return new NativeLayer(
          libc.toString(),
          libc,
          null,
          "lock file calls: os.arch " + osArch + " (expected: a 64-bit Linux ABI)");
    }
    return of(libc);
  }

  /** Why JNA cannot load, and how to fix it when it is its native stub. */
  static String jnaFailure(Throwable e) {
    String why = "JNA or libc unavailable: " + withCause(e);
    boolean stub =
        e instanceof UnsatisfiedLinkError || e.getCause() instanceof UnsatisfiedLinkError;
    if (!stub) {
      return why;
    }
    return why
        + ". JNA extracts its native stub (libjnidispatch) into jna.tmpdir, else"
        + " $XDG_CACHE_HOME/JNA/temp or ~/.cache/JNA/temp, else java.io.tmpdir, and cannot load"
        + " it from a noexec mount (a hardened container's scratch volume). Fix: run with"
        + " -Djna.tmpdir=<a directory that allows exec>, or give it the libjnidispatch.so of JNA "
        + com.sun.jna.Native.VERSION
        + " with -Djna.boot.library.path=<its directory> (one installed as a system library:"
        + " -Djna.nosys=false), or run on JDK 22+, where Affinity Kit calls libc through"
        + " java.lang.foreign and extracts nothing";
  }

  /** {@code e} and its cause: {@code --illegal-native-access=deny} hides it in an init error. */
  public static String withCause(Throwable e) {
    Throwable cause = e.getCause();
    return cause == null ? e.toString() : e + " caused by " + cause;
  }

  private static NativeLayer none(String why) {
    return new NativeLayer("none", null, null, why);
  }

  /** This layer, noting that the preferred implementation could not load. */
  private NativeLayer after(String preferred) {
    String w = why.isEmpty() ? preferred : why + "; " + preferred;
    return threads == null
        ? none(w)
        : new NativeLayer(name + " (" + preferred + ")", threads, files, why);
  }

  /** Returns the calls behind pinning, or empty when this platform has none ({@link #why()}). */
  public Optional<ThreadCalls> threads() {
    return Optional.ofNullable(threads);
  }

  /** Returns the calls of lock files, or empty when this platform has none ({@link #why()}). */
  public Optional<FileCalls> files() {
    return Optional.ofNullable(files);
  }

  /** Returns whether the calls go through {@code java.lang.foreign}: affinity-numa's follow. */
  public boolean isForeign() {
    return threads != null && threads.getClass().getName().equals(FFM_CLASS);
  }

  /** Returns what calls libc ({@code JNA 5.17.0}...), with why the preferred one did not load. */
  public String name() {
    return name;
  }

  /** Returns why a concern is missing; empty when none is. */
  public String why() {
    return why;
  }

  /** Returns {@code path} NUL-terminated, in the JDK's file name encoding. */
  public static byte[] cString(String path) {
    Charset charset;
    try {
      charset = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
    } catch (IllegalArgumentException e) {
      charset = Charset.defaultCharset();
    }
    byte[] bytes = path.getBytes(charset);
    return Arrays.copyOf(bytes, bytes.length + 1);
  }

  @Override
  public String toString() {
    return "NativeLayer[" + name + (why.isEmpty() ? "" : ", " + why) + "]";
  }
}
