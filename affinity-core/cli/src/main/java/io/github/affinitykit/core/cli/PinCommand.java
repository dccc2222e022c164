package io.github.affinitykit.core.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code affinity-kit pin --pid PID RULES}: loads the agent into a running JVM (the Attach API)
 * with the rules {@code -javaagent:} takes ({@code @file} read here), and prints what it pinned. A
 * bad rule refuses them all: nothing starts there, one line per rule on the error stream. A JVM
 * already running the agent is left as it is: its rules and threads are printed, and the pin is
 * refused. A rule naming a carrier of the virtual-thread scheduler is refused: carriers can be
 * pinned only from the start.
 *
 * <p>Exit status: 0 pinned, 1 the JVM runs the agent already or its answer could not be read, 2 a
 * bad option or rule, or a JVM that cannot be attached to.
 *
 * <p>Thread safety: one instance per run.
 */
@Command(
    name = "pin",
    mixinStandardHelpOptions = true,
    versionProvider = KitVersion.class,
    sortOptions = false,
    description = {
      "Pin the threads of a running JVM by name: load the agent into it (the Attach API; the JVM's"
          + " user or root) with RULES, as -javaagent:affinity-agent.jar=RULES takes them, and"
          + " print each thread it pinned.",
      "A JVM already running the agent keeps its rules; carrier threads of the virtual-thread"
          + " scheduler cannot be pinned after start."
    })
final class PinCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(names = "--pid", required = true, paramLabel = "PID", description = "the JVM's pid")
  private long pid;

  @Mixin private AgentJarOption agent = new AgentJarOption();

  @Parameters(
      paramLabel = "RULES",
      description = "<thread-name glob>=<group rule>[;...], or @FILE (one rule a line)")
  private String rules;

  @Override
  public Integer call() throws IOException {
    Path jar = agent.jar(spec);
    String text = rules.startsWith("@") ? read(rules.substring(1)) : rules;
    CommandLines.require(
        spec, !text.isBlank(), "RULES", rules, "<thread-name glob>=<group rule>[;...]");
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try (TargetJvm jvm = CommandLines.configured(spec, () -> TargetJvm.attach(pid))) {
      Optional<String> running = jvm.agentRules();
      AgentAnswer answer = jvm.ask(jar, running.isPresent() ? "" : text);
      if (running.isPresent() || answer.outcome().equals("RUNNING")) {
        out.print(AttachText.pinned(pid, answer));
        out.flush();
        err.println(
            "--pid: "
                + pid
                + " (expected: a JVM without the agent: it runs "
                + answer.rules()
                + ", which stay; restart it to change them)");
        return 1;
      }
      if (!answer.outcome().equals("PINNED")) {
        answer.errors().forEach(e -> err.println(OneLineErrors.oneLine(e)));
        if (answer.errors().isEmpty()) {
          err.println(
              "--pid: "
                  + pid
                  + " (expected: an answer from the agent: "
                  + answer.outcome()
                  + "; its stderr says why)");
          return 1;
        }
        return CommandLines.USAGE_ERROR;
      }
      out.print(AttachText.pinned(pid, answer));
      return 0;
    }
  }

  private String read(String file) {
    try {
      return Files.readString(Path.of(file), StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      throw CommandLines.badValue(spec, "RULES", "@" + file, "a readable file of rules: " + e);
    }
  }
}
