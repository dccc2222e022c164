package io.github.affinitykit.agent;

import io.github.affinitykit.agent.boot.ThreadHook;
import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.host.HostCpus;
import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.reservation.CpuReservations;
import io.github.affinitykit.watchdog.RepinPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.ProtectionDomain;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * The Java agent: {@code -javaagent:affinity-agent.jar=<rules>} (or {@code =@file}) pins the
 * threads of an unmodified application by name, through a kit of its own (this host, the configured
 * lock directory), its groups, leases and a reporting watchdog (docs/agent.md). It never stops the
 * JVM: a bad rule is one line on stderr and is left out, and an agent that cannot start says why in
 * one line. Its {@code carriers=} rule places the virtual-thread scheduler's carriers ({@link
 * Carriers}), at JVM start only. At JVM exit it closes every lease it holds.
 *
 * <p>Thread safety: {@link #premain} and {@link #agentmain} are called by the JVM; they serialise
 * on the class.
 */
public final class AffinityAgent {
  private static final String PREFIX = "affinity-agent: ";
  private static final String HOOK = "io/github/affinitykit/agent/boot/ThreadHook.class";

  /** The system property the agent sets to its rules: the command line reads it by attaching. */
  static final String RULES_PROPERTY = "affinitykit.agent.rules";

  private static Running running; // guarded by the class

  private AffinityAgent() {}

  /**
   * Starts the agent before {@code main} ({@code -javaagent:}).
   *
   * @param args the rules, or {@code @file}
   * @param inst the JVM's instrumentation
   */
  public static void premain(String args, Instrumentation inst) {
    start(args, inst, true);
  }

  /**
   * Starts the agent in a running JVM (the Attach API): as {@link #premain}, or, with the options
   * of {@code affinity-kit pin --pid} and {@code threads --pid} ({@link AttachReport}), strictly (a
   * bad rule, or one naming a carrier of the virtual-thread scheduler, refuses them all and nothing
   * starts), binding the running threads the rules name before it returns, and answering in the
   * command line's report file. A JVM already running the agent is left as it is: the answer is its
   * rules and threads.
   *
   * @param args the rules, or {@code @file}; or {@code --report=<file>}, a newline and the rules
   * @param inst the JVM's instrumentation
   */
  public static void agentmain(String args, Instrumentation inst) {
    Optional<AttachReport> report = AttachReport.of(args);
    if (report.isPresent()) {
      attach(report.get(), inst);
    } else {
      start(args, inst, false);
    }
  }

  @SuppressWarnings("checkstyle:illegalcatch") // an agent never stops the JVM: not even an Error
  private static synchronized void start(String args, Instrumentation inst, boolean atStart) {
    Consumer<String> err = line -> System.err.println(PREFIX + line);
    try {
      if (running != null) {
        err.accept("already started: " + args + " ignored");
        return;
      }
      start(rules(args), inst, err, false, atStart);
    } catch (Throwable e) {
      err.accept("not started: " + e);
    }
  }

  @SuppressWarnings("checkstyle:illegalcatch") // an agent never stops the JVM: not even an Error
  private static synchronized void attach(AttachReport report, Instrumentation inst) {
    Consumer<String> err = line -> System.err.println(PREFIX + line);
    String outcome;
    try {
      if (running != null) {
        outcome = "RUNNING";
      } else if (report.rules().isBlank()) {
        outcome = "NONE";
      } else {
        List<String> refused = new ArrayList<>();
        ThreadPinner pinner = start(rules(report.rules()), inst, refused::add, true, false);
        refused.forEach(e -> report.add("error", e));
        outcome = pinner == null ? "REFUSED" : "PINNED";
      }
      report.add("rules", running == null ? "none" : running.rules());
      if (running != null) {
        report.rows(running.pinner());
      }
    } catch (Throwable e) {
      report.add("error", "not started: " + e);
      outcome = "REFUSED";
    }
    try {
      report.finish(outcome);
    } catch (IOException e) {
      err.accept("cannot answer affinity-kit: " + e);
    }
  }

  /**
   * Starts the agent with rules {@code text}, lines to {@code err}; {@return its pinner, null when
   * no rule is left} {@code strict} (attached): a bad rule or one naming a carrier leaves nothing
   * started, and the running threads the rules name are bound before it returns. {@code atStart}:
   * before {@code main} ({@code -javaagent}), the only time a carriers rule applies.
   */
  private static ThreadPinner start(
      String text, Instrumentation inst, Consumer<String> err, boolean strict, boolean atStart)
      throws Exception {
    boolean verbose = Boolean.getBoolean("affinitykit.agent.verbose");
    Duration period = Duration.ofMillis(Long.getLong("affinitykit.agent.period", 1000));
    TidBackend backend = new TidBackend(AffinityBackend.detect());
    AffinityKit kit =
        AffinityKit.create(HostCpus.probe(), backend, CpuReservations.inConfiguredDirectory());
    List<String> bad = new ArrayList<>();
    ThreadRules rules =
        ThreadRules.parse(
            text,
            (glob, rule) ->
                glob.equals(Carriers.GLOB)
                    ? Carriers.group(kit, rule, atStart, carriersNow())
                    : kit.group(glob).rule(rule).build(),
            e -> bad.add(strict ? e : e + "; rule left out, the application runs"));
    if (strict) {
      bad.addAll(carriers(rules));
    }
    bad.forEach(err);
    if (rules.isEmpty() || strict && !bad.isEmpty()) {
      if (bad.isEmpty()) {
        err.accept(
            "no rule to apply: " + text.strip() + " (expected: <thread-name glob>=<group rule>)");
      }
      return null;
    }
    Consumer<String> log = line -> System.err.println(PREFIX + line);
    RepinPolicy repin = AgentWatchdog.policy(System.getProperty(AgentWatchdog.REPIN_PROPERTY), log);
    rules.carriers().ifPresent(c -> log.accept(Carriers.size(c.group())));
    // the process's mask: a carrier's first, and a thread's that inherited a pinned one's CPU
    CpuSet start = backend.isSupported() ? backend.getAffinity(0) : CpuSet.empty();
    Consumer<String> out = verbose ? log : line -> {};
    ThreadPinner pinner =
        new ThreadPinner(rules, backend, out, strict, new Carriers(backend, start, log), start);
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> out.accept(pinner.close()), "affinity-agent-exit"));
    hook(inst);
    ThreadHook.install(pinner::started, pinner::ended);
    instrument(inst);
    running = new Running(rules.toString(), pinner);
    System.setProperty(RULES_PROPERTY, rules.toString());
    if (strict) {
      pinner.scan(); // the threads running now: bound before the command line reads the rows
    }
    // the watchdog starts on the scan thread, off the JVM's start-up path
    scanEvery(pinner, period.dividedBy(2), () -> AgentWatchdog.start(kit, period, repin, log), log);
    log.accept(
        rules
            + " on "
            + kit.pool().cpus()
            + ", "
            + backend.reason()
            + "; watchdog every "
            + period.toMillis()
            + " ms, "
            + AgentWatchdog.words(repin));
    return pinner;
  }

  /** {@return one error per rule naming a running carrier of the virtual-thread scheduler} */
  private static List<String> carriers(ThreadRules rules) {
    List<String> errors = new ArrayList<>();
    for (ThreadRules.Rule r : rules.rules()) {
      Thread.getAllStackTraces().keySet().stream()
          .filter(t -> Carriers.isCarrier(t) && r.matches(t.getName()))
          .findFirst()
          .ifPresent(
              t ->
                  errors.add(
                      r.glob()
                          + ": "
                          + t.getName()
                          + ", a carrier of the virtual-thread scheduler (expected: a carrier"
                          + " rule at start-up, -javaagent: the scheduler reads its size once)"));
    }
    return errors;
  }

  /** {@return how many carriers of the virtual-thread scheduler run now} */
  private static long carriersNow() {
    return ThreadPinner.live().stream().filter(Carriers::isCarrier).count();
  }

  /** The rules of {@code args}: as given, or the file after {@code @}. */
  private static String rules(String args) throws IOException {
    String a = args == null ? "" : args.strip();
    return a.startsWith("@") ? Files.readString(Path.of(a.substring(1))) : a;
  }

  /**
   * Defines {@link ThreadHook} in the boot loader, before anything loads it, so that {@code
   * java.lang.Thread} sees it: directly ({@link #defineInBootLoader}), else from a one-class jar
   * appended to the boot class path (deleted at exit; the JVM then warns that class-data sharing is
   * off for the application's classes).
   */
  private static void hook(Instrumentation inst) throws IOException {
    byte[] bytes;
    try (InputStream in = AffinityAgent.class.getClassLoader().getResourceAsStream(HOOK)) {
      if (in == null) {
        throw new IOException(HOOK + ": not in the agent's jar");
      }
      bytes = in.readAllBytes();
    }
    if (defineInBootLoader(inst, bytes)) {
      return;
    }
    Path jar = Files.createTempFile("affinity-agent-boot", ".jar");
    jar.toFile().deleteOnExit();
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file)) {
      out.putNextEntry(new JarEntry(HOOK));
      out.write(bytes);
      out.closeEntry();
    }
    inst.appendToBootstrapClassLoaderSearch(new JarFile(jar.toFile()));
  }

  /**
   * Defines the hook with the JDK's own {@code jdk.internal.misc.Unsafe}, opened to the agent
   * through the instrumentation (no warning on any JDK, no class generated); false where that
   * fails.
   */
  @SuppressWarnings("checkstyle:illegalcatch") // any failure falls back to the boot class path
  private static boolean defineInBootLoader(Instrumentation inst, byte[] bytes) {
    try {
      Module base = Object.class.getModule();
      Module self = AffinityAgent.class.getModule();
      inst.redefineModule(
          base, Set.of(), Map.of("jdk.internal.misc", Set.of(self)), Map.of(), Set.of(), Map.of());
      Class<?> unsafe = Class.forName("jdk.internal.misc.Unsafe");
      Object u = unsafe.getMethod("getUnsafe").invoke(null);
      String name = HOOK.substring(0, HOOK.length() - ".class".length());
      unsafe
          .getMethod(
              "defineClass",
              String.class,
              byte[].class,
              int.class,
              int.class,
              ClassLoader.class,
              ProtectionDomain.class)
          .invoke(u, name, bytes, 0, bytes.length, null, null);
      return true;
    } catch (Exception e) {
      return false;
    }
  }

  /**
   * Weaves the hook into every {@code run()} of Thread and of its subclasses ({@link
   * ThreadClasses}, {@link RunWeaver}): those loaded later as they load, those loaded now (Thread
   * itself among them) retransformed here.
   */
  private static void instrument(Instrumentation inst) throws UnmodifiableClassException {
    ThreadClasses threads = new ThreadClasses(inst, ThreadHook.class);
    inst.addTransformer(threads, true); // first: a thread class loading meanwhile is not missed
    List<Class<?>> loaded = new ArrayList<>();
    for (Class<?> type : inst.getAllLoadedClasses()) {
      if (threads.add(type) && inst.isModifiableClass(type)) {
        loaded.add(type);
      }
    }
    inst.retransformClasses(loaded.toArray(new Class<?>[0]));
  }

  /**
   * On a daemon thread of the agent's: runs {@code first}, then scans now and every {@code period}
   * (two scans bind a renamed thread: one watchdog period).
   */
  @SuppressWarnings("checkstyle:illegalcatch") // the scans go on without a watchdog
  private static void scanEvery(
      ThreadPinner pinner, Duration period, Runnable first, Consumer<String> err) {
    Thread scan =
        new Thread(
            () -> {
              try {
                first.run();
              } catch (RuntimeException | LinkageError e) {
                err.accept("watchdog not started: " + e);
              }
              while (true) {
                try {
                  pinner.scan();
                } catch (Exception e) {
                  err.accept("scan failed: " + e);
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(period.toMillis()));
              }
            },
            "affinity-agent-scan");
    scan.setDaemon(true);
    scan.start();
  }

  /** The agent started in this JVM: its rules as the start line shows them, and its pinner. */
  private record Running(String rules, ThreadPinner pinner) {}
}
