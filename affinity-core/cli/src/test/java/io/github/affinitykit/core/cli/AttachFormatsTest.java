package io.github.affinitykit.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What pin and threads read (a /proc fixture tree, thread dumps, the agent's answer) and print. */
class AttachFormatsTest {
  @TempDir Path proc;

  @Test
  void shouldReadEachThreadsNameMaskAndLastCpuFromAProcTree() throws Exception {
    task(42, 42, "java", "0-3", stat(42, "java", 3));
    task(42, 43, "data-plane-kafk", "2", stat(43, "data-plane-kafk", 2));
    task(42, 44, "a) (b c", "0,2", stat(44, "a) (b c", 1)); // a name with ") (" and spaces
    Files.createDirectories(proc.resolve("42/task/45")); // ended while read: no files

    assertThat(ProcTasks.of(proc, 42))
        .containsExactly(
            new ProcTasks.Task(42, "java", "0-3", 3),
            new ProcTasks.Task(43, "data-plane-kafk", "2", 2),
            new ProcTasks.Task(44, "a) (b c", "0,2", 1));
  }

  @Test
  void shouldSayUnknownWhenAStatLineIsShortOrHasNoName() {
    assertThat(ProcTasks.lastCpu("12 (x) S 1 2")).isEqualTo(-1);
    assertThat(ProcTasks.lastCpu("garbage")).isEqualTo(-1);
    assertThat(ProcTasks.mask(List.of("Name:\tx"))).isEqualTo("?");
  }

  @Test
  void shouldReadJavaNamesByKernelIdInTheJdk17AndJdk19Forms() {
    String dump =
        "1234:\nFull thread dump OpenJDK 64-Bit Server VM:\n\n"
            + "\"main\" #1 prio=5 os_prio=0 cpu=50.33ms elapsed=0.12s tid=0x00007f nid=0x3039"
            + " runnable  [0x00007f]\n"
            + "   java.lang.Thread.State: RUNNABLE\n"
            + "\"data-plane-kafka-request-handler-1 \"x\"\" #27 daemon prio=5 tid=0x1 nid=0x10"
            + " waiting on condition\n"
            + "\"worker\" #31 [4242] prio=5 os_prio=0 cpu=1ms elapsed=1s tid=0x00007f nid=4242"
            + " waiting\n"
            + "\"GC Thread#0\" os_prio=0 cpu=1.2ms elapsed=3s tid=0x00007f nid=4200 runnable  \n"
            + "\"nid=77 is a name\" #40 prio=5 tid=0x2 nid=4300 waiting\n";

    assertThat(ThreadDump.parse(dump))
        .isEqualTo(
            Map.of(
                0x3039, "main",
                16, "data-plane-kafka-request-handler-1 \"x\"",
                4242, "worker",
                4200, "GC Thread#0",
                4300, "nid=77 is a name"));
  }

  @Test
  void shouldReadTheAgentsAnswerAndSayWhenItIsIncomplete() {
    AgentAnswer a =
        AgentAnswer.parse(
            List.of(
                "rules\t[feed-*=cpus:1]",
                "row\t4242\tfeed-1\t1\tfeed-*=cpus:1\tPINNED\tfirst free CPU",
                "row\t-1\tfeed-2\t-1\tfeed-*=cpus:1\tNOT_BOUND\ta memory policy",
                "row\tshort",
                "later\tfact",
                "end\tPINNED"));

    assertThat(a.outcome()).isEqualTo("PINNED");
    assertThat(a.rules()).isEqualTo("[feed-*=cpus:1]");
    assertThat(a.rows())
        .containsExactly(
            new AgentAnswer.Row(4242, "feed-1", 1, "feed-*=cpus:1", "PINNED", "first free CPU"),
            new AgentAnswer.Row(-1, "feed-2", -1, "feed-*=cpus:1", "NOT_BOUND", "a memory policy"));
    assertThat(AgentAnswer.parse(List.of("error\tx (expected: y)")).outcome())
        .isEqualTo("INCOMPLETE");
  }

  @Test
  void shouldPrintEveryThreadWithTheAgentsRuleWhereItHasARow() {
    List<ProcTasks.Task> tasks =
        List.of(new ProcTasks.Task(10, "java", "0-1", 0), new ProcTasks.Task(11, "feed-1", "1", 1));
    AgentAnswer agent =
        new AgentAnswer(
            "RUNNING",
            "[feed-*=cpus:1]",
            List.of(),
            List.of(new AgentAnswer.Row(11, "feed-1", 1, "feed-*=cpus:1", "PINNED", "first")));

    assertThat(AttachText.threads(7, tasks, Map.of(10, "main\nx"), Optional.of(agent)))
        .isEqualTo(
            "pid 7: 2 threads; agent: [feed-*=cpus:1]\n"
                + "TID  THREAD     MASK  LAST  RULE           STATUS\n"
                + "10   main\\x0ax  0-1   0     -              -\n"
                + "11   feed-1     1     1     feed-*=cpus:1  PINNED\n");
  }

  @Test
  void shouldFindTheAgentJarBesideTheCommandLinesJarOrItsClassesDirectory() {
    assertThat(AgentJarOption.beside(Optional.of(Path.of("/opt/kit/affinity-cli.jar"))))
        .contains(Path.of("/opt/kit/affinity-agent.jar"));
    assertThat(AgentJarOption.beside(Optional.of(Path.of("/w/cli/target/classes"))))
        .contains(Path.of("/w/cli/target/affinity-agent.jar"));
  }

  private void task(int pid, int tid, String comm, String mask, String stat) throws Exception {
    Path t = Files.createDirectories(proc.resolve(pid + "/task/" + tid));
    Files.writeString(t.resolve("comm"), comm + "\n");
    Files.writeString(
        t.resolve("status"), "Name:\t" + comm + "\nCpus_allowed:\tf\nCpus_allowed_list:\t" + mask);
    Files.writeString(t.resolve("stat"), stat);
  }

  /** A stat line whose field 39 is {@code cpu}. */
  private static String stat(int tid, String comm, int cpu) {
    StringBuilder sb = new StringBuilder(tid + " (" + comm + ") S");
    for (int field = 4; field <= 52; field++) {
      sb.append(' ').append(field == 39 ? cpu : field * 10);
    }
    return sb.append('\n').toString();
  }
}
