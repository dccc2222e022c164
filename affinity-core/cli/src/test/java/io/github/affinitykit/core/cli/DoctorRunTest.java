package io.github.affinitykit.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.os.AffinityBackend;
import io.github.affinitykit.core.testkit.CliRun;
import io.github.affinitykit.core.testkit.Fixtures;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class DoctorRunTest {
  private static final Supplier<AffinityBackend> NOOP = () -> AffinityBackend.unsupported("test");

  /** The picocli command line alone, as before the plain path existed. */
  static CliRun picocli(List<String> args) {
    return CliRun.of(
        (out, err) -> {
          CommandLine cl = new CommandLine(new KitCommand());
          cl.addSubcommand(new DoctorCommand(NOOP));
          return CommandLines.execute(cl, args, out, err);
        });
  }

  /** The plain path, its exit status (empty: left to picocli) into {@code status[0]}. */
  static CliRun plain(List<String> args, OptionalInt[] status) {
    return CliRun.of(
        (out, err) -> {
          status[0] = DoctorRun.plain(args, out, NOOP);
          return status[0].orElse(-1);
        });
  }

  @Test
  void shouldPrintWhatThePicocliCommandPrintsWhenTheInvocationIsPlain() {
    String e5 = Fixtures.root(Fixtures.E5).toString();
    String arm = Fixtures.root("128arm-2pa2n8cluster4co").toString();
    String nic = Fixtures.root(Fixtures.E5_NIC).toString();
    for (List<String> args :
        List.of(
            List.of("doctor", "--root", e5),
            List.of("doctor", "--root", nic, "--audit-ms", "0"),
            List.of("doctor", "--json", "--root", nic),
            List.of("doctor", "--root=" + arm),
            List.of("doctor", "--json", "--root", e5),
            List.of("doctor", "--root", arm, "--audit-ms=0", "--json"),
            List.of("doctor", "--audit-ms", "999999", "--root", e5))) {
      OptionalInt[] status = new OptionalInt[1];

      CliRun fast = plain(args, status);

      assertThat(status[0]).as("%s", args).hasValue(0);
      assertThat(fast.err()).isEmpty();
      assertThat(fast.out()).as("%s", args).isEqualTo(picocli(args).out());
    }
  }

  @Test
  void shouldLeaveTheInvocationToPicocliAndPrintNothingWhenItIsNotPlain(@TempDir Path empty) {
    String e5 = Fixtures.root(Fixtures.E5).toString();
    for (List<String> args :
        List.of(
            List.<String>of(),
            List.of("--version"),
            List.of("doctor", "--help"),
            List.of("doctor", "--jsn"),
            List.of("doctor", "--json=true"),
            List.of("doctor", "--json", "--json"),
            List.of("doctor", "--root"),
            List.of("doctor", "--root="),
            List.of("doctor", "--root", "@args"),
            List.of("doctor", "--root", empty.toString()),
            List.of("doctor", "--root", e5, "--root", e5),
            List.of("doctor", "--root", e5, "--audit-ms", "010"),
            List.of("doctor", "--root", e5, "--audit-ms", "1000000"),
            List.of("doctor", "--root", e5, "--audit-ms", "-5"),
            List.of("doctor", "--root", e5, "extra"))) {
      OptionalInt[] status = new OptionalInt[1];

      CliRun fast = plain(args, status);

      assertThat(status[0]).as("%s", args).isEmpty();
      assertThat(fast.out() + fast.err()).as("%s", args).isEmpty();
    }
  }

  @Test
  void shouldLeaveABadPoolOverrideToPicocliWhichExplainsTheHostAndNamesIt() {
    System.setProperty("affinitykit.pool", "5-1");
    try {
      List<String> args = List.of("doctor", "--root", Fixtures.root(Fixtures.E5).toString());
      OptionalInt[] status = new OptionalInt[1];

      assertThat(plain(args, status).out()).isEmpty();
      assertThat(status[0]).isEmpty();
    } finally {
      System.clearProperty("affinitykit.pool");
    }
  }
}
