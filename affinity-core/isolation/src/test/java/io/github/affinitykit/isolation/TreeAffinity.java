package io.github.affinitykit.isolation;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.natives.Errno;
import io.github.affinitykit.core.os.AffinityException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import java.util.stream.Stream;

/**
 * A fake kernel for task affinities on a fixture tree: {@code set} rewrites the task's {@code
 * Cpus_allowed_list} (ESRCH for a task not in the tree, EINVAL for one flagged unmovable), and
 * records every call; a hook runs before each (to check the journal is already on disk).
 */
final class TreeAffinity implements TaskAffinity {
  private final Path root;
  private final List<String> calls = new ArrayList<>();
  private IntConsumer before = tid -> {};

  TreeAffinity(Path root) {
    this.root = root;
  }

  TreeAffinity before(IntConsumer hook) {
    this.before = hook;
    return this;
  }

  synchronized List<String> calls() {
    return List.copyOf(calls);
  }

  @Override
  public boolean supported() {
    return true;
  }

  @Override
  public synchronized void set(int tid, CpuSet cpus) {
    before.accept(tid);
    calls.add(tid + "->" + cpus);
    Path status = find(tid);
    if (status == null) {
      throw new AffinityException("sched_setaffinity", tid, cpus, Errno.ESRCH);
    }
    try {
      String stat = Files.readString(status.resolveSibling("stat"));
      long flags = Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[6]);
      if ((flags & IsolationTree.PF_NO_SETAFFINITY) != 0) {
        throw new AffinityException("sched_setaffinity", tid, cpus, Errno.EINVAL);
      }
      String s = Files.readString(status);
      String head = s.substring(0, s.indexOf("Cpus_allowed_list:"));
      Files.writeString(status, head + "Cpus_allowed_list:\t" + cpus + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Path find(int tid) {
    try (Stream<Path> s = Files.list(root.resolve("proc"))) {
      return s.map(p -> p.resolve("task/" + tid + "/status"))
          .filter(Files::exists)
          .findFirst()
          .orElse(null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
