package io.github.affinitykit.kernel;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(qemuLog.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .start();
    boolean exited = false;
    try {
      exited = p.waitFor(shape.timeout().toMillis(), TimeUnit.MILLISECONDS);
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
