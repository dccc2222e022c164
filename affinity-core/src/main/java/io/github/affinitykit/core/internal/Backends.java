package io.github.affinitykit.core.internal;

import io.github.affinitykit.core.CpuSet;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.os.AffinityException;
import io.github.affinitykit.core.os.LinuxAffinityBackend;
import io.github.affinitykit.core.os.NoopAffinityBackend;
import java.util.Locale;
import java.util.Objects;

/**
 * Chooses the platform's {@link AffinityBackend} and holds the argument checks every backend
 * shares.
 *
 * <p>Thread safety: stateless.
 */
public final class Backends {
  private Backends() {}

  /** Probes for the backend of an OS named {@code osName} (the {@code os.name} property). */
  public static AffinityBackend detect(String osName) {
    if (!osName.toLowerCase(Locale.ROOT).startsWith("linux")) {
      return new NoopAffinityBackend("os.name " + osName + ": only Linux is supported");
    }
    try {
      return LinuxAffinityBackend.load();
    } catch (LinkageError e) {
      // JNA absent (NoClassDefFoundError), no native dispatch library or libc symbol
      // (UnsatisfiedLinkError)
      return new NoopAffinityBackend("JNA or libc unavailable: " + withCause(e));
    } catch (AffinityException e) {
      return new NoopAffinityBackend("sched_getaffinity failed: " + e.getMessage());
    } catch (RuntimeException e) {
      // IllegalCallerException under --illegal-native-access=deny, JNA's own failures
      return new NoopAffinityBackend("native access failed: " + withCause(e));
    }
  }

  /** {@code e}, and its cause if any: --illegal-native-access=deny hides it in an init error. */
  public static String withCause(Throwable e) {
    Throwable cause = e.getCause();
    return cause == null ? e.toString() : e + " caused by " + cause;
  }

  /** Rejects a negative thread id. */
  public static int checkTid(int tid) {
    if (tid < 0) {
      throw new IllegalArgumentException("tid: " + tid + " (expected: >= 0, 0 = calling thread)");
    }
    return tid;
  }

  /** Rejects a null or empty CPU set. */
  public static CpuSet checkCpus(CpuSet cpus) {
    Objects.requireNonNull(cpus, "cpus");
    if (cpus.isEmpty()) {
      throw new IllegalArgumentException("cpus: empty (expected: at least one CPU)");
    }
    return cpus;
  }
}
