package io.github.affinitykit.kernel;

import static java.nio.file.StandardCopyOption.REPLACE_EXISTING;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Boots one shape under QEMU (TCG: KVM hangs in this nested VM) and waits for the guest to power
 * off. The kernel console goes to {@code <shape>-console.log}, the guest program's results to a
 * second serial port ({@code <shape>-result.log}), so kernel messages never interleave with them. A
 * guest still running at the shape's timeout is killed with its process tree.
 *
 * <p>Thread safety: not thread-safe; one boot per call.
 */
final class GuestBoot {
  private GuestBoot() {}

  /**
   * Boots {@code shape} from {@code initrd} with {@code kernel}; never throws for a guest fault.
   */
  static GuestResult boot(Shape shape, Path qemu, Path kernel, Path initrd, Path work)
      throws IOException, InterruptedException {
    Path console = work.resolve(shape.name() + "-console.log");
    Path result = work.resolve(shape.name() + "-result.log");
    Path qemuLog = work.resolve(shape.name() + "-qemu.log");
    for (Path p : List.of(console, result, qemuLog)) {
      Files.deleteIfExists(p);
    }
    List<String> cmd = new ArrayList<>(List.of(qemu.toString()));
    cmd.addAll(shape.qemuMachineArgs());
    cmd.addAll(
        List.of(
            "-kernel",
            kernel.toString(),
            "-initrd",
            initrd.toString(),
            "-append",
            "console=ttyS0 quiet loglevel=4 panic=-1 " + shape.cmdline(),
            "-display",
            "none",
            "-monitor",
            "none",
            "-nic",
            "none",
            "-no-reboot",
            "-serial",
            "file:" + console,
            "-serial",
            "file:" + result));
    long start = System.nanoTime();
    long deadline = start + shape.timeout().toNanos();
    Process p = start(cmd, qemuLog);
    boolean exited = false;
    try {
      Duration bootLimit = bootLimit(shape);
      exited = awaitInit(p, result, Math.min(deadline, start + bootLimit.toNanos()));
      if (!exited && !reachedInit(result) && System.nanoTime() < deadline) { // hung before init
        kill(p);
        if (Files.exists(console)) {
          Files.move(console, work.resolve(shape.name() + "-console-hung.log"), REPLACE_EXISTING);
        }
        if (Files.exists(qemuLog)) { // the retry writes its own
          Files.move(qemuLog, work.resolve(shape.name() + "-qemu-hung.log"), REPLACE_EXISTING);
        }
        System.out.println("shape " + shape.name() + ": no init after " + bootLimit + "; again");
        p = start(cmd, qemuLog);
      }
      exited = exited || p.waitFor(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
    } finally {
      if (!exited) {
        kill(p);
      }
    }
    long wallMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    return new GuestResult(
        shape,
        cmd,
        exited ? p.exitValue() : -1,
        !exited,
        wallMs,
        read(console),
        read(result),
        read(qemuLog));
  }

  /**
   * How long a guest may take to reach init (it takes 3-13 s of guest time, under a minute of wall
   * time on a busy 2-CPU host). One boot in several hundred under multi-threaded TCG hung before
   * init with nothing on the console (shape A, 2026-11-27, while every other shape of the same run
   * booted in seconds); such a boot is killed and started once more within the shape's own limit.
   * {@code -Dkernel.bootLimitSeconds} changes it (a much slower host; or 1 to try the retry).
   */
  static final Duration BOOT_LIMIT =
      Duration.ofSeconds(Long.getLong("kernel.bootLimitSeconds", 150));

  /**
   * {@link #BOOT_LIMIT}, and 3 s more for each vCPU above {@link
   * Shape#MULTI_THREADED_TCG_MAX_CPUS}: on single-threaded TCG every CPU's bring-up and every wait
   * on all CPUs (RCU, stop_machine) is served in turn. D's 64 CPUs reached init after 35, 72 and 96
   * s of guest time (about 140 s of wall time quiet); 150 s killed two CI runs' first boots that
   * were slow, not hung.
   */
  static Duration bootLimit(Shape shape) {
    int above = Math.max(0, shape.cpus() - Shape.MULTI_THREADED_TCG_MAX_CPUS);
    return BOOT_LIMIT.plusSeconds(3L * above);
  }

  private static Process start(List<String> cmd, Path qemuLog) throws IOException {
    return new ProcessBuilder(cmd)
        .redirectErrorStream(true)
        .redirectOutput(qemuLog.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
        .start();
  }

  /** Waits until the guest exits (true) or has reached init or {@code until} has passed (false). */
  private static boolean awaitInit(Process p, Path result, long until)
      throws IOException, InterruptedException {
    while (System.nanoTime() < until) {
      if (p.waitFor(1, TimeUnit.SECONDS)) {
        return true;
      }
      if (reachedInit(result)) {
        return false;
      }
    }
    return false;
  }

  private static boolean reachedInit(Path result) throws IOException {
    return read(result).contains("@@AK booted");
  }

  /** Kills QEMU and anything it started, and waits until they are gone. */
  static void kill(Process p) throws InterruptedException {
    List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
    tree.add(p.toHandle());
    for (ProcessHandle h : tree) {
      h.destroyForcibly();
    }
    for (ProcessHandle h : tree) {
      h.onExit().orTimeout(30, TimeUnit.SECONDS).exceptionally(e -> h).join();
    }
    p.waitFor(30, TimeUnit.SECONDS);
  }

  private static String read(Path p) throws IOException {
    return Files.exists(p)
        ? new String(Files.readAllBytes(p), StandardCharsets.UTF_8).replace("\r", "")
        : "";
  }
}
