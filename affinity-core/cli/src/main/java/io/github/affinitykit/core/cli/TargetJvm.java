package io.github.affinitykit.core.cli;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Optional;

/**
 * A running JVM reached through the Attach API ({@code jdk.attach}): the agent's rules if it runs
 * there (the system property it sets), and the agent's answer to a request ({@link #ask}). Attach
 * needs the target's user (or root): a JVM of another user refuses it.
 *
 * <p>The answer comes back in a file, never through a listener left in the target: the command line
 * makes a directory only its user can write (0700; 0711 when root asks a JVM of another user), a
 * report file and a rules file in it (0600, given to the target's user), passes their paths in the
 * agent's options, reads the report once {@code loadAgent} returns (the agent answers before), and
 * deletes all three.
 *
 * <p>Thread safety: not thread-safe; one per command run.
 */
final class TargetJvm implements AutoCloseable {
  /** The system property the agent sets to its rules where it runs. */
  static final String RULES_PROPERTY = "affinitykit.agent.rules";

  private final long pid;
  private final VirtualMachine vm;

  private TargetJvm(long pid, VirtualMachine vm) {
    this.pid = pid;
    this.vm = vm;
  }

  /**
   * Attaches to JVM {@code pid}.
   *
   * @throws IllegalArgumentException in the house form when it cannot be attached to
   */
  static TargetJvm attach(long pid) {
    try {
      return new TargetJvm(pid, VirtualMachine.attach(Long.toString(pid)));
    } catch (AttachNotSupportedException | IOException e) {
      throw new IllegalArgumentException(
          "--pid: "
              + pid
              + " (expected: a running JVM of this user that accepts attach: "
              + e.getMessage()
              + ")",
          e);
    }
  }

  /** {@return the rules the agent runs with in the target, empty if it does not run there} */
  Optional<String> agentRules() throws IOException {
    return Optional.ofNullable(vm.getSystemProperties().getProperty(RULES_PROPERTY));
  }

  /**
   * Loads {@code jar} into the target with {@code rules} (blank: only ask what it pins) and
   * {@return its answer}
   */
  AgentAnswer ask(Path jar, String rules) throws IOException {
    Path dir = Files.createTempDirectory("affinity-kit-attach");
    Path report = dir.resolve("report");
    Path ruleFile = dir.resolve("rules");
    try {
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
      Files.createFile(
          report,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.createFile(
          ruleFile,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(ruleFile, rules, StandardCharsets.UTF_8, LinkOption.NOFOLLOW_LINKS);
      shareWithTarget(dir, report, ruleFile);
      String options = "--report=" + report + (rules.isBlank() ? "" : "\n@" + ruleFile);
      try {
        vm.loadAgent(jar.toString(), options);
      } catch (AgentLoadException | AgentInitializationException e) {
        throw new IOException("cannot load " + jar + " into " + pid + ": " + e.getMessage(), e);
      }
      return AgentAnswer.parse(Files.readAllLines(report, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(report);
      Files.deleteIfExists(ruleFile);
      Files.deleteIfExists(dir);
    }
  }

  /**
   * Where root asks a JVM of another user: the files become that user's and the directory
   * searchable (not readable, not writable) by others, so the target can open them by name.
   */
  private void shareWithTarget(Path dir, Path report, Path ruleFile) throws IOException {
    UserPrincipal target = Files.getOwner(Path.of("/proc", Long.toString(pid)));
    if (!target.equals(Files.getOwner(dir))) {
      Files.setOwner(report, target);
      Files.setOwner(ruleFile, target);
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
    }
  }

  @Override
  public void close() throws IOException {
    vm.detach();
  }
}
