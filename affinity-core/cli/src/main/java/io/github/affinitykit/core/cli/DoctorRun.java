package io.github.affinitykit.core.cli;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.host.CpuPool;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.hostreport.HostReport;
import io.github.affinitykit.isolation.IsolationJournal;
import io.github.affinitykit.isolation.Isolator;
import io.github.affinitykit.jitter.JitterReport;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;

/**
 * The doctor's work without its command line, and its plain invocations run without picocli.
 *
 * <p>{@link #plain} answers {@code doctor} followed by {@code --json}, {@code --root DIR} and
 * {@code --audit-ms N} (also {@code --name=value}), each at most once, when the root holds {@code
 * sys/} or {@code proc/}, the host can be read and its pool is sound. Everything else (help,
 * version, a repeated, unknown or malformed option, a value out of range, a bad root or pool) is
 * left to {@link DoctorCommand}, which prints what it always printed. Why: building picocli's model
 * of the two commands (reflection on their annotations, proxies for them) cost a short-lived
 * process about as much as probing a 128-CPU host; see docs/ARCHITECTURE.md, "The bundle".
 *
 * <p>Thread safety: stateless.
 */
final class DoctorRun {
  /** The largest audit window, in ms. */
  static final int MAX_AUDIT_MS = 999_999;

  /** The audit window when none is given, in ms. */
  static final int DEFAULT_AUDIT_MS = 200;

  private DoctorRun() {}

  /** The options of a plain invocation. */
  private record Plain(boolean json, Path root, int auditMs) {}

  /**
   * Runs {@code args} if they are a plain invocation (see the class comment), printing to {@code
   * out}; returns its exit status, or empty when {@link DoctorCommand} must run them instead (then
   * nothing was printed).
   */
  static OptionalInt plain(List<String> args, PrintStream out, Supplier<AffinityBackend> backends) {
    Optional<Plain> p = parse(args);
    if (p.isEmpty()) {
      return OptionalInt.empty();
    }
    Path root = p.get().root();
    if (!Files.isDirectory(root.resolve("sys")) && !Files.isDirectory(root.resolve("proc"))) {
      return OptionalInt.empty();
    }
    FutureTask<AffinityBackend> probing = probeBeside(backends);
    HostReport host;
    CpuPool pool;
    try {
      host = HostReport.of(HostCpus.diagnose(root));
      pool = host.host().pool();
    } catch (RuntimeException e) {
      // the command line words it, probing a backend of its own; this probe is a daemon thread
      // that ends by itself (the backend's load is idempotent)
      return OptionalInt.empty();
    }
    AffinityBackend backend = joined(probing);
    out.print(report(host, root, p.get().json(), backend));
    if (!p.get().json() && isLive(root)) {
      out.print(live(host.host(), backend, pool, p.get().auditMs()));
    }
    out.flush();
    return OptionalInt.of(0);
  }

  /**
   * Starts probing this JVM's backend (loading the native layer: a third of a short run's time) on
   * a thread of its own, so that it overlaps reading the host's files.
   */
  private static FutureTask<AffinityBackend> probeBeside(Supplier<AffinityBackend> backends) {
    FutureTask<AffinityBackend> task =
        new FutureTask<>(
            () -> {
              AffinityBackend b = backends.get();
              b.isSupported(); // whatever it loads lazily, loaded here
              return b;
            });
    Thread t = new Thread(task, "doctor-backend-probe");
    t.setDaemon(true);
    t.start();
    return task;
  }

  /** The probe's backend; its failure rethrown as it was thrown. */
  private static AffinityBackend joined(FutureTask<AffinityBackend> probing) {
    try {
      return probing.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("doctor: interrupted while probing the backend", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** The report of {@code host}, read under {@code root}: text, or JSON. */
  static String report(HostReport host, Path root, boolean json, AffinityBackend backend) {
    return report(host, root, json, backend, Optional.empty());
  }

  /** As above; the JSON with {@code jitter}'s sampling where there was one. */
  static String report(
      HostReport host,
      Path root,
      boolean json,
      AffinityBackend backend,
      Optional<JitterReport> jitter) {
    String label = isLive(root) ? "this host" : root.toString();
    List<IsolationJournal> isolations =
        Isolator.at(
                root,
                backend,
                Path.of(System.getProperty(Isolator.DIRECTORY_PROPERTY, "/run/affinitykit")))
            .journals();
    return json
        ? DoctorJson.render(host, label, backend, isolations, jitter)
        : DoctorText.render(host, label, backend) + isolationText(isolations);
  }

  private static String isolationText(List<IsolationJournal> isolations) {
    StringBuilder sb = new StringBuilder("\nIsolation  ");
    if (isolations.isEmpty()) {
      return sb.append("none recorded\n").toString();
    }
    sb.append('\n');
    isolations.forEach(j -> sb.append("  ").append(j.describe()).append('\n'));
    return sb.toString();
  }

  /** The live sections: an audit of {@code pool} over {@code auditMs}, and this JVM's threads. */
  static String live(HostCpus host, AffinityBackend backend, CpuPool pool, int auditMs) {
    AffinityKit kit = AffinityKit.create(host, backend, CpuReservations.inTempDirectory(), pool);
    return DoctorLive.render(kit, Duration.ofMillis(auditMs));
  }

  /** Whether {@code root} is this host's own root, where the live sections apply. */
  static boolean isLive(Path root) {
    return root.toString().equals("/");
  }

  private static Optional<Plain> parse(List<String> args) {
    if (args.isEmpty() || !args.get(0).equals("doctor")) {
      return Optional.empty();
    }
    String[] values = new String[3]; // --json, --root, --audit-ms
    for (int i = 1; i < args.size(); i++) {
      String a = args.get(i);
      if (a.startsWith("@")) {
        return Optional.empty(); // picocli expands argument files
      }
      int eq = a.indexOf('=');
      String name = eq < 0 ? a : a.substring(0, eq);
      int slot = List.of("--json", "--root", "--audit-ms").indexOf(name);
      if (slot < 0 || values[slot] != null || (slot == 0 && eq >= 0)) {
        return Optional.empty();
      }
      if (slot == 0) {
        values[0] = "";
      } else if (eq >= 0) {
        values[slot] = a.substring(eq + 1);
      } else if (++i < args.size()) {
        values[slot] = args.get(i);
      } else {
        return Optional.empty();
      }
    }
    return plain(values);
  }

  private static Optional<Plain> plain(String[] values) {
    String root = values[1] == null ? "/" : values[1];
    int ms = values[2] == null ? DEFAULT_AUDIT_MS : milliseconds(values[2]);
    if (root.isEmpty() || root.startsWith("-") || root.startsWith("@") || ms < 0) {
      return Optional.empty();
    }
    try {
      return Optional.of(new Plain(values[0] != null, Path.of(root), ms));
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
  }

  /** {@code text} as a whole number of ms up to {@link #MAX_AUDIT_MS}: digits, no leading zero. */
  private static int milliseconds(String text) {
    boolean digits =
        !text.isEmpty() && text.length() <= 6 && (text.equals("0") || text.charAt(0) != '0');
    for (int i = 0; digits && i < text.length(); i++) {
      digits = text.charAt(i) >= '0' && text.charAt(i) <= '9';
    }
    return digits ? Integer.parseInt(text) : -1;
  }
}
