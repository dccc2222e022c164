package io.github.affinitykit.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.internal.natives.NativeLayer;
import io.github.affinitykit.isolation.Change;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code isolate}'s COMMAND on this host, with the isolation's admission stood in for (nothing is
 * isolated): stopped while it is let on, resumed by a system call, and killed with the reason said
 * when it cannot be let on.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(60)
class StoppedCommandTest {
  @TempDir Path dir;

  private final StringWriter err = new StringWriter();

  private int run(List<String> command, IntFunction<Change> admit) throws Exception {
    StoppedCommand c =
        new StoppedCommand(StoppedCommand.SHELL, NativeLayer.system().threads().orElseThrow());
    return c.run(command, admit, new PrintWriter(err, true));
  }

  private static Change admitted(int pid, Change.Outcome outcome, String detail) {
    return new Change(Change.Kind.THREAD, pid, "tid " + pid, "", "", outcome, detail);
  }

  private static char state(int pid) throws Exception {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    return stat.charAt(stat.lastIndexOf(')') + 2);
  }

  @Test
  void shouldLetTheCommandOnWhileStoppedThenResumeItAndReturnItsStatus() throws Exception {
    Path ran = dir.resolve("ran");
    AtomicReference<Character> whileAdmitted = new AtomicReference<>();

    int status =
        run(
            List.of("/bin/sh", "-c", "echo ran > " + ran + "; exit 7"),
            pid -> {
              try {
                whileAdmitted.set(state(pid));
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
              return admitted(pid, Change.Outcome.DONE, "moved to the partition");
            });

    assertThat(whileAdmitted.get()).as("stopped while let on").isEqualTo('T');
    assertThat(status).isEqualTo(7);
    assertThat(ran).hasContent("ran");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void shouldKillARefusedCommandBeforeItRunsAndSayWhy() throws Exception {
    Path ran = dir.resolve("ran");
    AtomicInteger child = new AtomicInteger();

    int status =
        run(
            List.of("/bin/sh", "-c", "echo ran > " + ran),
            pid -> {
              child.set(pid);
              return admitted(pid, Change.Outcome.FAILED, "EBUSY (Device or resource busy)");
            });

    assertThat(status).isEqualTo(StoppedCommand.NOT_RUN);
    assertThat(ran).doesNotExist();
    assertThat(ProcessHandle.of(child.get())).as("killed, not left stopped").isEmpty();
    assertThat(err.toString())
        .isEqualTo(
            "isolate: /bin/sh -c echo ran > "
                + ran
                + ": not run: cannot let it onto the isolated CPUs: EBUSY (Device or resource"
                + " busy)"
                + System.lineSeparator());
  }

  @Test
  void shouldKillACommandThatCannotBeBoundAndSayWhy() throws Exception {
    int status =
        run(
            List.of("/bin/true"),
            pid -> {
              throw new IllegalArgumentException("setAffinity: EINVAL");
            });

    assertThat(status).isEqualTo(StoppedCommand.NOT_RUN);
    assertThat(err.toString())
        .contains("not run: cannot bind it to the isolated CPUs: setAffinity");
  }

  @Test
  void shouldRefuseAShellThatIsNotThereBeforeAnythingIsIsolated() {
    assertThat(StoppedCommand.unavailable(StoppedCommand.SHELL)).isEmpty();
    assertThat(StoppedCommand.unavailable(dir.resolve("sh")))
        .hasValue(
            "shell: "
                + dir.resolve("sh")
                + " (expected: an executable file, which starts COMMAND stopped; nothing"
                + " isolated)");
  }
}
