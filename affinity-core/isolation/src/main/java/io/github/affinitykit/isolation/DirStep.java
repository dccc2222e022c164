package io.github.affinitykit.isolation;

import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * Creates a cgroup. Undoing moves every task still in it (threads started there by a pinned thread
 * inherit it) to {@code home}, then removes it.
 *
 * <p>Thread safety: immutable.
 *
 * @param path the cgroup directory
 * @param home the cgroup its tasks go back to (its parent)
 * @param tasksFile {@code cgroup.threads} (v2) or {@code tasks} (v1)
 */
record DirStep(String path, String home, String tasksFile) implements Step {
  DirStep {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(home, "home");
    Objects.requireNonNull(tasksFile, "tasksFile");
  }

  @Override
  public Change planned() {
    return new Change(
        Change.Kind.CGROUP, -1, path, "(none)", "created", Change.Outcome.PLANNED, "");
  }

  @Override
  public boolean essential() {
    return true;
  }

  @Override
  public Change apply(Kernel kernel) {
    try {
      kernel.files().mkdir(path);
      return planned().with(Change.Outcome.DONE, "");
    } catch (IOException e) {
      return planned().with(Change.Outcome.FAILED, "mkdir " + path + ": " + Step.why(e));
    }
  }

  @Override
  public Change undo(Kernel kernel) {
    KernelFiles files = kernel.files();
    if (!java.nio.file.Files.isDirectory(files.fs().path(path))) {
      return planned().with(Change.Outcome.UNCHANGED, "not there");
    }
    int moved = 0;
    for (String tid : files.read(path + "/" + tasksFile).orElse("").split("\n")) {
      if (!tid.isBlank()) {
        try {
          files.write(home + "/" + tasksFile, tid.strip());
          moved++;
        } catch (IOException e) {
          // the thread ended meanwhile, or the kernel keeps it: rmdir says which
        }
      }
    }
    try {
      files.rmdir(path);
      String detail = moved == 0 ? "" : moved + " task(s) moved back to " + home;
      return planned().with(Change.Outcome.RESTORED, detail);
    } catch (IOException e) {
      return planned().with(Change.Outcome.FAILED, "rmdir " + path + ": " + Step.why(e));
    }
  }

  @Override
  public List<String> paths() {
    return List.of(path, path + "/" + tasksFile, home + "/" + tasksFile);
  }

  @Override
  public String journal() {
    return String.join(
        " ", "mkdir", Escape.encode(path), Escape.encode(home), Escape.encode(tasksFile));
  }

  static DirStep parse(List<String> f) {
    Step.expect("mkdir", f, 3);
    return new DirStep(Escape.decode(f.get(0)), Escape.decode(f.get(1)), Escape.decode(f.get(2)));
  }
}
